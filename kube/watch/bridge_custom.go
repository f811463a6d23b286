package watch

import (
	"context"
	"slices"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/kube/objects"
	"rollscope/model/argo"
)

// A custom resource's kind (Argo's Rollouts, with the AnalysisRuns that
// decide their steps) is watched only where the cluster serves it and the
// user may list it: on a cluster without the CRD, or to a user without the
// permission, a reflector would fail and retry forever and the screen would
// show a watch problem about something the operator never asked for. The
// embedded API serves Argo's kinds and is asked the same way.

// customWatch is one custom resource the bridge may watch.
type customWatch struct {
	kind     string // model.ObjectRef.Kind ("Rollout")
	resource schema.GroupVersionResource
	obj      runtime.Object
	lw       func(c kubernetes.Interface, ns string) objects.ListWatch
}

// customWatches are the registry's custom kinds, then Argo's AnalysisRuns.
func customWatches() []customWatch {
	var out []customWatch
	for _, row := range objects.All() {
		if e, _ := row.Kind.Entry(); e.Custom != "" {
			out = append(out, customWatch{kind: e.Name, resource: e.Resource(), obj: row.New(), lw: row.ListWatch})
		}
	}
	return append(out, customWatch{kind: "AnalysisRun", resource: argo.AnalysisRuns, obj: &argo.AnalysisRun{}, lw: objects.AnalysisRuns})
}

// customAskTimeout bounds the discovery and access questions asked before
// the watches start: a cluster that does not answer them in time is
// watched without its custom resources, as one that does not serve them.
const customAskTimeout = 10 * time.Second

// addCustom adds a source for each custom resource the cluster serves to
// the user in namespace ns ("" for all). It runs before the sources start.
func (b *Bridge) addCustom(ctx context.Context, client kubernetes.Interface, ns string) {
	dyn, err := objects.DynamicOf(client)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, customAskTimeout)
	defer cancel()
	for _, w := range customWatches() {
		if !Serves(ctx, client, w.resource, ns) {
			continue
		}
		b.add(w.kind, w.obj, trim, func(s *source) cache.ListerWatcher {
			return observed[runtime.Object](s, w.lw(client, ns), dyn)
		})
	}
}

// Serves reports whether the cluster behind client serves resource and
// lets the user list and watch it in namespace ns ("" for all): its
// discovery lists the resource, and an access review allows the list. A
// review that cannot be asked leaves the list to say.
func Serves(ctx context.Context, client kubernetes.Interface, resource schema.GroupVersionResource, ns string) bool {
	if ctx.Err() != nil {
		return false
	}
	list, err := client.Discovery().ServerResourcesForGroupVersion(resource.GroupVersion().String())
	if err != nil || !slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == resource.Resource }) {
		return false
	}
	for _, verb := range []string{"list", "watch"} {
		review, err := client.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{
			Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: ns, Verb: verb, Group: resource.Group, Version: resource.Version, Resource: resource.Resource}},
		}, metav1.CreateOptions{})
		if err == nil && !review.Status.Allowed {
			return false
		}
	}
	return true
}
