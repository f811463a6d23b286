package control

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// ControllerUIDIndexFunc indexes an object by its controller owner's UID.
// Objects without a controller are indexed under Orphan, so that adoption
// looks at the few orphans instead of scanning a namespace on every sync.
func ControllerUIDIndexFunc(obj any) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, nil
	}
	if ref := v1.GetControllerOfNoCopy(m); ref != nil {
		return []string{string(ref.UID)}, nil
	}
	return []string{Orphan}, nil
}

// Orphan is the IndexByController value of objects that have no controller.
const Orphan = ""

// NodeNameIndexFunc indexes a pod by spec.nodeName.
func NodeNameIndexFunc(obj any) ([]string, error) {
	if p, ok := obj.(*corev1.Pod); ok {
		return []string{p.Spec.NodeName}, nil
	}
	return nil, nil
}

// Indexers returns the indexers a runner registers for kind.
func Indexers(kind Kind) cache.Indexers {
	ix := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
	switch kind {
	case Pods:
		ix[IndexByController] = ControllerUIDIndexFunc
		ix[IndexByNode] = NodeNameIndexFunc
	case ReplicaSets, ReplicationControllers, ControllerRevisions:
		ix[IndexByController] = ControllerUIDIndexFunc
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
