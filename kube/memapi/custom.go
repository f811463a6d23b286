package memapi

import (
	"reflect"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	fakedynamic "k8s.io/client-go/dynamic/fake"

	"rollscope/model/argo"
)

// Custom resources (Argo Rollouts' Rollouts, AnalysisRuns and
// AnalysisTemplates) are served as a real API server serves a CRD's
// objects: stored as the JSON they were sent as (unstructured), through the
// same store, resourceVersions, watches and owner cascades as the built-in
// kinds, and reached through the dynamic client (Client().Dynamic()), as
// on a live cluster. What the CRDs declare is followed: Rollouts have the
// status and scale subresources (spec.replicas, status.HPAReplicas,
// status.selector), AnalysisRuns and AnalysisTemplates none, so a normal
// write also writes their status; generation counts every change but
// metadata's, or only the spec's where there is a status subresource.
// Where it knowingly differs from a real server: the CRDs' OpenAPI schemas
// are neither validated nor used to prune unknown fields.

// customKinds are the custom resources the embedded cluster serves.
func customKinds() []*kind {
	custom := func(resource, kindName string, short ...string) *kind {
		gv := argo.GroupVersion
		return &kind{gvr: gv.WithResource(resource), gvk: gv.WithKind(kindName), custom: true, namespaced: true,
			generation: true, shortNames: short, name: apivalidation.NameIsDNSSubdomain}
	}
	rollouts := custom("rollouts", "Rollout", "ro")
	rollouts.status, rollouts.scale = true, true
	return []*kind{rollouts, custom("analysisruns", "AnalysisRun", "ar"), custom("analysistemplates", "AnalysisTemplate", "at")}
}

var unstructuredType = reflect.TypeOf(&unstructured.Unstructured{})

// newDynamicClient is the cluster's dynamic client: client-go's fake, used
// only as plumbing, every request answered by the cluster's reactors.
func newDynamicClient(c *Cluster) *fakedynamic.FakeDynamicClient {
	lists := map[schema.GroupVersionResource]string{}
	for _, k := range c.kinds {
		if k.custom {
			lists[k.gvr] = k.gvk.Kind + "List"
		}
	}
	d := fakedynamic.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists)
	d.PrependReactor("*", "*", c.react)
	d.PrependWatchReactor("*", c.reactWatch)
	return d
}

// Dynamic is the cluster's client for custom resources, as a live
// connection carries one (kube/objects' DynamicOf).
func (d directClient) Dynamic() dynamic.Interface { return d.dynamic }

// unstructuredPart is obj's top-level field name ("spec", "status") when
// obj is a custom resource's; ok is false for a typed object.
func unstructuredPart(obj runtime.Object, name string) (v any, present, ok bool) {
	u, isU := obj.(*unstructured.Unstructured)
	if !isU {
		return nil, false, false
	}
	v, present = u.Object[name]
	return v, present, true
}

// copyUnstructuredStatus sets dst's status to src's when both are custom
// resources' objects; false when they are not.
func copyUnstructuredStatus(dst, src runtime.Object) bool {
	d, ok1 := dst.(*unstructured.Unstructured)
	s, ok2 := src.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return false
	}
	if st, ok := s.Object["status"]; ok {
		d.Object["status"] = st
	} else {
		delete(d.Object, "status")
	}
	return true
}

// unstructuredChanged reports whether a custom resource's generation moves
// from old to next: its spec changed, or, without a status subresource,
// anything but its metadata.
func unstructuredChanged(k *kind, old, next runtime.Object) bool {
	o, n := old.(*unstructured.Unstructured), next.(*unstructured.Unstructured)
	if k.status {
		return !apiequality.Semantic.DeepEqual(o.Object["spec"], n.Object["spec"])
	}
	without := func(m map[string]any) map[string]any {
		out := make(map[string]any, len(m))
		for key, v := range m {
			if key != "metadata" && key != "apiVersion" && key != "kind" {
				out[key] = v
			}
		}
		return out
	}
	return !apiequality.Semantic.DeepEqual(without(o.Object), without(n.Object))
}
