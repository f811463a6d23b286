package control

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/model"
)

// ControllerUIDIndexFunc indexes an object by its controller owner's UID.
// Objects without a controller are indexed under Orphan, so that adoption
// looks at the few orphans instead of scanning a namespace on every sync.
func ControllerUIDIndexFunc(obj any) ([]string, error) {
	if v, ok := controllerUIDOf(obj); ok {
		return []string{v}, nil
	}
	return nil, nil
}

// controllerUIDOf is the one value ControllerUIDIndexFunc files obj under;
// false for an object without metadata, which it files under none.
func controllerUIDOf(obj any) (string, bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false
	}
	if ref := v1.GetControllerOfNoCopy(m); ref != nil {
		return string(ref.UID), true
	}
	return Orphan, true
}

// Orphan is the IndexByController value of objects that have no controller.
const Orphan = ""

// NodeNameIndexFunc indexes a pod by spec.nodeName.
func NodeNameIndexFunc(obj any) ([]string, error) {
	if v, ok := nodeNameOf(obj); ok {
		return []string{v}, nil
	}
	return nil, nil
}

func nodeNameOf(obj any) (string, bool) {
	if p, ok := obj.(*corev1.Pod); ok {
		return p.Spec.NodeName, true
	}
	return "", false
}

// namespaceOf is cache.MetaNamespaceIndexFunc's one value; false for an
// object without metadata, about which that function errs.
func namespaceOf(obj any) (string, bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false
	}
	return m.GetNamespace(), true
}

// SingleValue returns the one-value form of the index functions Indexers
// registers, each of which files an object under exactly one value or none:
// a cache asks it for that value without the slice the index function
// allocates, which for pods is three slices a write. It returns nil for any
// other function, and false means: ask fn, which files obj under no value
// (or errs).
func SingleValue(name string, fn cache.IndexFunc) func(obj any) (string, bool) {
	same := func(g cache.IndexFunc) bool { return reflect.ValueOf(fn).Pointer() == reflect.ValueOf(g).Pointer() }
	switch {
	case name == cache.NamespaceIndex && same(cache.MetaNamespaceIndexFunc):
		return namespaceOf
	case name == IndexByController && same(ControllerUIDIndexFunc):
		return controllerUIDOf
	case name == IndexByNode && same(NodeNameIndexFunc):
		return nodeNameOf
	}
	return nil
}

// CanaryIndexFunc files a Deployment with canary annotations under Canary.
func CanaryIndexFunc(obj any) ([]string, error) {
	if d, ok := obj.(*appsv1.Deployment); ok && model.HasCanaryAnnotations(d) {
		return []string{Canary}, nil
	}
	return nil, nil
}

// NoneIn reports whether ix, when there is one, files nothing under value
// of index name; false when it cannot tell.
func NoneIn(ix cache.Indexer, name, value string) bool {
	if ix == nil {
		return false
	}
	keys, err := ix.IndexKeys(name, value)
	return err == nil && len(keys) == 0
}

// Indexers returns the indexers a runner registers for kind.
func Indexers(kind Kind) cache.Indexers {
	ix := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
	switch kind {
	case Pods:
		ix[IndexByController] = ControllerUIDIndexFunc
		ix[IndexByNode] = NodeNameIndexFunc
	case ReplicaSets, ReplicationControllers, ControllerRevisions, AnalysisRuns:
		ix[IndexByController] = ControllerUIDIndexFunc
	case Deployments:
		ix[IndexCanaries] = CanaryIndexFunc
	}
	return ix
}

// Key returns the namespace/name key of obj, or "" when it has none. It
// understands cache.DeletedFinalStateUnknown.
func Key(obj any) string {
	k, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return ""
	}
	return k
}

// Deleted reads the object of a delete notification: informers hand over
// either the object or, when they missed the deletion, a
// cache.DeletedFinalStateUnknown tombstone holding its last known state.
func Deleted[T any](obj any) (T, bool) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	t, ok := obj.(T)
	return t, ok
}
