package replicaset

import (
	"maps"
	"reflect"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
)

// Event handlers only touch in-memory state (the queue and the expectations);
// everything that reads or writes the API happens in Sync.

func (c *Controller) enqueue(o owner) {
	if q := c.q(); q != nil {
		q.Add(ownerKey(o))
	}
}

func (c *Controller) enqueueAfter(o owner, d time.Duration) {
	if q := c.q(); q != nil {
		q.AddAfter(ownerKey(o), d)
	}
}

func ownerKey(o owner) string { return o.rs.Namespace + "/" + o.rs.Name }

func podKey(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }

// resolve returns the owner a controller reference points to, if it is of
// this controller's kind and still the same object (same UID).
func (c *Controller) resolve(namespace string, ref *metav1.OwnerReference) (owner, bool) {
	if ref == nil || ref.Kind != c.kind.gvk().Kind {
		return owner{}, false
	}
	o, err := c.kind.fromCache(namespace, ref.Name)
	if err != nil || o.rs.UID != ref.UID {
		return owner{}, false
	}
	return o, true
}

// matchingOwners returns the owners whose selector selects an orphan pod, in
// name order so that they are enqueued in a reproducible order.
func (c *Controller) matchingOwners(p *corev1.Pod) []owner {
	if len(p.Labels) == 0 {
		return nil
	}
	all, err := c.kind.list(p.Namespace)
	if err != nil {
		return nil
	}
	var out []owner
	for _, o := range all {
		sel, err := c.kind.podSelector(o.rs)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(p.Labels)) {
			continue
		}
		out = append(out, o)
	}
	return out
}

func (c *Controller) podAdded(obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	c.orphans.observe(p)
	c.owned.observe(p)
	if p.DeletionTimestamp != nil {
		// A pod that appears already terminating (e.g. after a controller
		// restart) must not count as a creation.
		c.podDeleted(p)
		return
	}
	if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
		if o, ok := c.resolve(p.Namespace, ref); ok {
			c.exp.creationObserved(ownerKey(o))
			c.enqueue(o)
		}
		return
	}
	// An orphan: every owner that could adopt it should look.
	for _, o := range c.matchingOwners(p) {
		c.enqueue(o)
	}
}

func (c *Controller) podUpdated(oldObj, newObj any) {
	old, ok1 := oldObj.(*corev1.Pod)
	cur, ok2 := newObj.(*corev1.Pod)
	if !ok1 || !ok2 {
		return
	}
	// The cache now holds cur; so must the owned index.
	c.owned.observe(cur)
	if cur.ResourceVersion == old.ResourceVersion {
		// Periodic resyncs carry no news.
		return
	}
	c.orphans.observe(cur)
	if !mattersToOwner(old, cur) {
		return
	}
	labelsChanged := !sameLabels(cur.Labels, old.Labels)
	if cur.DeletionTimestamp != nil {
		// Graceful deletion shows up as an update; treat it as the deletion,
		// so that the owner replaces the pod without waiting for it to go.
		c.podDeleted(cur)
		if labelsChanged {
			c.podDeleted(old)
		}
		return
	}
	curRef, oldRef := metav1.GetControllerOfNoCopy(cur), metav1.GetControllerOfNoCopy(old)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		if o, ok := c.resolve(old.Namespace, oldRef); ok {
			c.enqueue(o)
		}
	}
	if curRef != nil {
		o, ok := c.resolve(cur.Namespace, curRef)
		if !ok {
			return
		}
		c.enqueue(o)
		// A pod that just became ready becomes available minReadySeconds
		// later, with no event to say so: look again then.
		if mrs := o.rs.Spec.MinReadySeconds; mrs > 0 && !model.IsPodReady(old) && model.IsPodReady(cur) {
			c.enqueueAfter(o, time.Duration(mrs)*time.Second+time.Second)
		}
		return
	}
	if labelsChanged || refChanged {
		for _, o := range c.matchingOwners(cur) {
			c.enqueue(o)
		}
	}
}

// podRemoved handles a pod gone from the cache.
func (c *Controller) podRemoved(obj any) {
	if p, ok := control.Deleted[*corev1.Pod](obj); ok {
		c.owned.remove(p)
	}
	c.podDeleted(obj)
}

func (c *Controller) podDeleted(obj any) {
	p, ok := control.Deleted[*corev1.Pod](obj)
	if !ok {
		return
	}
	if p.DeletionTimestamp == nil {
		// Really gone, not just terminating.
		c.orphans.remove(p.Namespace, p.Name)
	}
	o, ok := c.resolve(p.Namespace, metav1.GetControllerOfNoCopy(p))
	if !ok {
		return
	}
	c.exp.deletionObserved(ownerKey(o), podKey(p))
	c.enqueue(o)
}

func (c *Controller) ownerAdded(obj any) {
	if o, ok := c.kind.fromEvent(obj); ok {
		c.enqueue(o)
	}
}

func (c *Controller) ownerUpdated(oldObj, newObj any) {
	old, ok1 := c.kind.fromEvent(oldObj)
	cur, ok2 := c.kind.fromEvent(newObj)
	if !ok1 || !ok2 {
		return
	}
	if old.rs.UID != cur.rs.UID {
		// Deleted and re-created under the same name between two events:
		// what was expected of the old one no longer applies.
		c.exp.forget(ownerKey(old))
	}
	c.enqueue(cur)
}

func (c *Controller) ownerDeleted(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	o, ok := c.kind.fromEvent(obj)
	if !ok {
		return
	}
	c.exp.forget(ownerKey(o))
	c.enqueue(o)
}

// mattersToOwner reports whether a pod update can change what its owner
// does or reports: whether it counts (labels, controller, deletion, phase),
// and whether and since when it is ready (status counts). Kubelet status
// churn (container states, other conditions, IPs) does not, and skipping it
// keeps a large simulated rollout from syncing its ReplicaSets once per
// status write. Victim ranking reads other fields, but only when replicas
// change, and then from the cache as it is.
func mattersToOwner(old, cur *corev1.Pod) bool {
	return model.LabelsOrOwnersChanged(old, cur) ||
		(old.DeletionTimestamp == nil) != (cur.DeletionTimestamp == nil) ||
		model.IsPodActive(old) != model.IsPodActive(cur) ||
		model.IsPodReady(old) != model.IsPodReady(cur) ||
		!readySince(old).Equal(readySince(cur))
}

// sameLabels is reflect.DeepEqual of two label maps, which upstream's pod
// update handler asks, without reflection (which allocates a copy of every
// value it reads): a nil map differs from an empty one.
func sameLabels(a, b map[string]string) bool {
	return (a == nil) == (b == nil) && maps.Equal(a, b)
}
