package watch

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/kind"
)

// lastApplied is kubectl's copy of the whole manifest as last applied; it
// can be as large as the object itself and the console never shows it.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// trim is the watches' transform: it drops what the console never shows
// before an object is cached, so that memory stays flat on big clusters.
// It owns the object it is given (client-go decodes a fresh one per event).
//
// Pods and Events, the kinds a cluster has by the thousand, are rebuilt from
// only the fields model reads (slim.go); the decoded object is then garbage
// at once instead of living in the cache.
//
// The templates of workloads (every kind of the registry, model/kind), of
// ReplicaSets and of ControllerRevisions (whose data is a template) are kept
// whole: the console diffs them between revisions, and an env change is a
// change a rollout is made of.
func trim(obj any) (any, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		return slimPod(o), nil
	case *corev1.Event:
		return slimEvent(o), nil
	}
	if m, ok := obj.(metav1.Object); ok {
		trimMeta(m)
	}
	if _, ok := kind.Of(obj); ok {
		return obj, nil // its template is kept; see above
	}
	switch o := obj.(type) {
	case *corev1.Node:
		// The list of images on a node runs to hundreds of entries.
		o.Status.Images = nil
		o.Status.VolumesInUse = nil
		o.Status.VolumesAttached = nil
	case *appsv1.ReplicaSet, *appsv1.ControllerRevision:
		// Templates are kept, and a ControllerRevision's data is its
		// template; see above.
	}
	return obj, nil
}

func trimMeta(m metav1.Object) {
	m.SetManagedFields(nil)
	delete(m.GetAnnotations(), lastApplied) // a no-op on a nil map
}
