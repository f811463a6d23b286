package memapi

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
)

var allVerbs = metav1.Verbs{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

// discoveryLists describes the served resources the way the real server's
// discovery does, subresources included, so that code which asks discovery
// before acting (kubectl drain looks for pods/eviction) takes the same path
// as against a real cluster.
func discoveryLists(kinds []*kind) []*metav1.APIResourceList {
	var lists []*metav1.APIResourceList
	byGroupVersion := map[string]*metav1.APIResourceList{}
	for _, k := range kinds {
		gv := k.gvr.GroupVersion().String()
		list := byGroupVersion[gv]
		if list == nil {
			list = &metav1.APIResourceList{GroupVersion: gv}
			byGroupVersion[gv] = list
			lists = append(lists, list)
		}
		list.APIResources = append(list.APIResources, metav1.APIResource{
			Name: k.gvr.Resource, SingularName: strings.ToLower(k.gvk.Kind), Namespaced: k.namespaced,
			Kind: k.gvk.Kind, Verbs: allVerbs, ShortNames: k.shortNames,
		})
		if k.status {
			list.APIResources = append(list.APIResources, metav1.APIResource{
				Name: k.gvr.Resource + "/status", Namespaced: k.namespaced, Kind: k.gvk.Kind,
				Verbs: metav1.Verbs{"get", "patch", "update"},
			})
		}
		if k.scale {
			list.APIResources = append(list.APIResources, metav1.APIResource{
				Name: k.gvr.Resource + "/scale", Namespaced: k.namespaced, Group: "autoscaling", Version: "v1", Kind: "Scale",
				Verbs: metav1.Verbs{"get", "patch", "update"},
			})
		}
		if k.gvr.Resource == "pods" && k.gvr.Group == "" {
			list.APIResources = append(list.APIResources,
				metav1.APIResource{Name: "pods/binding", Namespaced: true, Kind: "Binding", Verbs: metav1.Verbs{"create"}},
				metav1.APIResource{Name: "pods/eviction", Namespaced: true, Group: "policy", Version: "v1", Kind: "Eviction", Verbs: metav1.Verbs{"create"}},
			)
		}
	}
	return lists
}

// servedDiscovery is the fake's discovery, answering the preferred
// resources too: the API serves one version of each group, so every
// resource is preferred. RESTMappers and kubectl's short-name expansion read
// these lists.
type servedDiscovery struct{ *fakediscovery.FakeDiscovery }

// Discovery answers discovery for what the cluster serves.
func (c directClient) Discovery() discovery.DiscoveryInterface {
	return servedDiscovery{c.clientset.discovery}
}

// ServerPreferredResources is every served resource.
func (d servedDiscovery) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	_, lists, err := d.ServerGroupsAndResources()
	return lists, err
}

// ServerPreferredNamespacedResources is every served namespaced resource.
func (d servedDiscovery) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	lists, err := d.ServerPreferredResources()
	if err != nil {
		return nil, err
	}
	var out []*metav1.APIResourceList
	for _, l := range lists {
		ns := &metav1.APIResourceList{GroupVersion: l.GroupVersion}
		for _, r := range l.APIResources {
			if r.Namespaced {
				ns.APIResources = append(ns.APIResources, r)
			}
		}
		out = append(out, ns)
	}
	return out, nil
}
