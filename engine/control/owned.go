package control

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"rollscope/model"
)

// What a workload controller owns, found through IndexByController, and
// when an owned pod comes to count as available: the StatefulSet and
// DaemonSet controllers share these.

// OwnerKey is the key of the object of kind (a Kind of the owner reference,
// "StatefulSet") controlling obj, or "": the key its controller syncs when
// something it owns changes. It understands cache.DeletedFinalStateUnknown.
func OwnerKey(obj any, kind string) string {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	m, ok := obj.(metav1.Object)
	if !ok {
		return ""
	}
	ref := metav1.GetControllerOfNoCopy(m)
	if ref == nil || ref.Kind != kind {
		return ""
	}
	return m.GetNamespace() + "/" + ref.Name
}

// OwnedPods are the pods owner controls, in its namespace, that sel still
// selects, in the index's order.
func (l Listers) OwnedPods(owner metav1.Object, sel labels.Selector) []*corev1.Pod {
	objs, _ := l.PodIndex.ByIndex(IndexByController, string(owner.GetUID()))
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok && p.Namespace == owner.GetNamespace() && sel.Matches(labels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	return pods
}

// OwnedRevisions are owner's ControllerRevisions, oldest first; none when
// the runner feeds no revisions.
func (l Listers) OwnedRevisions(owner metav1.Object) []*appsv1.ControllerRevision {
	if l.RevisionIndex == nil {
		return nil
	}
	var revs []*appsv1.ControllerRevision
	objs, _ := l.RevisionIndex.ByIndex(IndexByController, string(owner.GetUID()))
	for _, o := range objs {
		if r, ok := o.(*appsv1.ControllerRevision); ok && r.Namespace == owner.GetNamespace() {
			revs = append(revs, r)
		}
	}
	model.SortRevisions(revs)
	return revs
}

// AddWhenAvailable queues key again once a pod that has just become ready
// (old was not, cur is) counts as available: minReadySeconds later — of the
// object at key, read with get —, and a second more to be past the
// boundary. Nothing else says when that moment comes.
func AddWhenAvailable[T any](k *Keys, key string, old, cur *corev1.Pod, get func(namespace, name string) (T, error), minReadySeconds func(T) int32) {
	if key == "" || model.IsPodReady(old) || !model.IsPodReady(cur) {
		return
	}
	if obj, found, _ := Lookup(key, get); found {
		if s := minReadySeconds(obj); s > 0 {
			k.AddAfter(key, time.Duration(s)*time.Second+time.Second)
		}
	}
}
