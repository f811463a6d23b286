package memapi

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// protectedNamespaces may never be deleted, as NamespaceLifecycle enforces.
var protectedNamespaces = []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic}

// deletion carries one delete request through its cascade, so that owner
// reference cycles end.
type deletion struct {
	visiting map[string]bool // UIDs whose foreground cascade has started
}

// delete handles DELETE of one object. The caller holds c.mu.
func (c *Cluster) delete(t *table, namespace, name string, opts metav1.DeleteOptions) error {
	k := t.kind
	obj := t.get(namespace, name)
	if obj == nil {
		return apierrors.NewNotFound(k.groupResource(), name)
	}
	m := metaOf(obj)
	if err := checkDeletePreconditions(k, m, opts.Preconditions); err != nil {
		return err
	}
	if _, ok := obj.(*corev1.Namespace); ok && slices.Contains(protectedNamespaces, name) {
		return apierrors.NewForbidden(k.groupResource(), name, fmt.Errorf("this namespace may not be deleted"))
	}
	if isDryRun(opts.DryRun) {
		return nil
	}
	c.deleteStored(t, obj, opts)
	return nil
}

// deleteStored applies a checked delete request to a stored object.
func (c *Cluster) deleteStored(t *table, obj runtime.Object, opts metav1.DeleteOptions) {
	if g := opts.GracePeriodSeconds; g != nil && *g < 0 {
		// Negative grace periods mean "as soon as possible", which upstream
		// turns into one second.
		one := int64(1)
		opts.GracePeriodSeconds = &one
	}
	c.deleteWithPolicy(t, obj, opts, &deletion{visiting: map[string]bool{}})
}

// deleteCollection handles DELETE on a collection: every matching object is
// deleted as if one by one.
func (c *Cluster) deleteCollection(t *table, namespace string, l labels.Selector, f fields.Selector, opts metav1.DeleteOptions) error {
	flt, err := newFilter(t.kind, namespace, l, f)
	if err != nil {
		return err
	}
	for _, obj := range t.sorted(flt.namespace) {
		if !flt.matches(obj) {
			continue
		}
		m := metaOf(obj)
		// An earlier delete in this collection may have cascaded to it.
		if t.get(m.GetNamespace(), m.GetName()) == nil {
			continue
		}
		if err := c.delete(t, m.GetNamespace(), m.GetName(), opts); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// propagation returns the requested cascade policy; Background is the
// default, as for every kind served here.
func propagation(opts metav1.DeleteOptions) metav1.DeletionPropagation {
	switch {
	case opts.PropagationPolicy != nil:
		return *opts.PropagationPolicy
	case opts.OrphanDependents != nil && *opts.OrphanDependents:
		return metav1.DeletePropagationOrphan
	default:
		return metav1.DeletePropagationBackground
	}
}

// deleteWithPolicy applies a delete request and its cascade. Orphan strips
// the owner's references from its dependents first; Foreground deletes the
// dependents first; Background deletes them once the owner is gone (see
// remove), which is also what happens to the dependents of an object that
// finishes its graceful deletion or loses its last finalizer later.
func (c *Cluster) deleteWithPolicy(t *table, obj runtime.Object, opts metav1.DeleteOptions, d *deletion) {
	m := metaOf(obj)
	uid := string(m.GetUID())
	switch propagation(opts) {
	case metav1.DeletePropagationOrphan:
		c.orphanDependents(uid)
	case metav1.DeletePropagationForeground:
		if d.visiting[uid] {
			return
		}
		d.visiting[uid] = true
		c.cascade(uid, metav1.DeletePropagationForeground, d)
	}
	if ns, ok := obj.(*corev1.Namespace); ok {
		c.emptyNamespace(ns.Name, d)
	}
	// The cascade may have written other objects, never this one: re-read it
	// all the same, so that the delete applies to what is stored.
	if cur := t.get(m.GetNamespace(), m.GetName()); cur != nil {
		c.terminate(t, cur, opts, d)
	}
}

// terminate applies one delete request to a stored object. A pod bound to a
// node gets a grace period; an object with finalizers is only marked; what
// is left is removed. A second delete may only shorten a grace period.
func (c *Cluster) terminate(t *table, cur runtime.Object, opts metav1.DeleteOptions, d *deletion) {
	m := metaOf(cur)
	finalizers := len(m.GetFinalizers()) > 0
	if at := m.GetDeletionTimestamp(); at != nil {
		grace := m.GetDeletionGracePeriodSeconds()
		if grace == nil || *grace == 0 {
			if !finalizers {
				c.remove(t, lastVersion(cur), cur, d)
			}
			return
		}
		if opts.GracePeriodSeconds == nil || *opts.GracePeriodSeconds >= *grace {
			return // graceful deletion already pending
		}
		period := *opts.GracePeriodSeconds
		if period == 0 && !finalizers {
			c.remove(t, lastVersion(cur), cur, d)
			return
		}
		shortened := metav1.NewTime(at.Add(time.Duration(period-*grace) * time.Second))
		c.markDeleted(t, cur, shortened, period)
		return
	}
	if period, graceful := podGracePeriod(cur, opts); graceful && period > 0 {
		c.markDeleted(t, cur, metav1.NewTime(c.now().Add(time.Duration(period)*time.Second)), period)
		return
	}
	if finalizers {
		c.markDeleted(t, cur, c.now(), 0)
		return
	}
	c.remove(t, lastVersion(cur), cur, d)
}

// podGracePeriod returns the grace period of a pod deletion, as upstream's
// pod strategy computes it: the request's, else the pod's own, and none for
// pods that never reached a node or have already finished.
func podGracePeriod(obj runtime.Object, opts metav1.DeleteOptions) (int64, bool) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return 0, false
	}
	period := int64(corev1.DefaultTerminationGracePeriodSeconds)
	switch {
	case opts.GracePeriodSeconds != nil:
		period = *opts.GracePeriodSeconds
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		period = *pod.Spec.TerminationGracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	return period, true
}

// markDeleted records a pending deletion on the object.
func (c *Cluster) markDeleted(t *table, cur runtime.Object, at metav1.Time, grace int64) {
	next := lastVersion(cur)
	nm := metaOf(next)
	nm.SetDeletionTimestamp(&at)
	nm.SetDeletionGracePeriodSeconds(&grace)
	c.commit(t, watch.Modified, next, cur)
}

// lastVersion is newVersion for a version that changes nothing but the
// metadata fields commit and deletion set: a pod's status is shared with the
// stored pod, not copied, since commit writes a stored pod's times only when
// they have fractions (podToSeconds), and a stored time has none. The
// kubelet deletes every pod it stops.
func lastVersion(stored runtime.Object) runtime.Object {
	if p, ok := stored.(*corev1.Pod); ok {
		next := *p
		return &next
	}
	return newVersion(stored)
}

// remove deletes a stored object for good and collects its dependents.
// final is the object's last state, a new object that nobody else holds.
func (c *Cluster) remove(t *table, final, stored runtime.Object, d *deletion) {
	c.commit(t, watch.Deleted, final, stored)
	c.cascade(string(metaOf(stored).GetUID()), metav1.DeletePropagationBackground, d)
}

// cascade does the garbage collector's work for an owner that is gone or
// being deleted in the foreground: a dependent that still has another owner
// only loses its references to absent or departing owners; any other
// dependent is deleted with the given policy.
func (c *Cluster) cascade(owner string, policy metav1.DeletionPropagation, d *deletion) {
	for _, dep := range c.owners.dependents(owner) {
		t := c.tables[dep.resource]
		obj := t.at(dep.key)
		if obj == nil {
			continue
		}
		if c.hasOtherOwner(obj, owner) {
			c.dropOwnerReferences(t, obj, func(ref metav1.OwnerReference) bool {
				return string(ref.UID) == owner || !c.exists(string(ref.UID))
			})
			continue
		}
		c.deleteWithPolicy(t, obj, metav1.DeleteOptions{PropagationPolicy: &policy}, d)
	}
}

// orphanDependents removes an owner's references from its dependents.
func (c *Cluster) orphanDependents(owner string) {
	for _, dep := range c.owners.dependents(owner) {
		t := c.tables[dep.resource]
		if obj := t.at(dep.key); obj != nil {
			c.dropOwnerReferences(t, obj, func(ref metav1.OwnerReference) bool { return string(ref.UID) == owner })
		}
	}
}

func (c *Cluster) dropOwnerReferences(t *table, obj runtime.Object, drop func(metav1.OwnerReference) bool) {
	next := obj.DeepCopyObject()
	nm := metaOf(next)
	nm.SetOwnerReferences(slices.DeleteFunc(nm.GetOwnerReferences(), drop))
	c.commit(t, watch.Modified, next, obj)
}

// hasOtherOwner reports whether obj has an existing owner besides owner.
func (c *Cluster) hasOtherOwner(obj runtime.Object, owner string) bool {
	for _, ref := range metaOf(obj).GetOwnerReferences() {
		if string(ref.UID) != owner && c.exists(string(ref.UID)) {
			return true
		}
	}
	return false
}

// exists reports whether an object with this UID is stored.
func (c *Cluster) exists(uid string) bool {
	_, ok := c.live[uid]
	return ok
}

// emptyNamespace removes everything in a namespace that is being deleted.
// The real namespace controller does this over time; here it happens at
// once, finalizers and grace periods notwithstanding.
func (c *Cluster) emptyNamespace(namespace string, d *deletion) {
	for _, k := range c.kinds {
		t := c.tables[k.gvr]
		if !k.namespaced {
			continue
		}
		for _, obj := range t.sorted(namespace) {
			if cur := t.get(namespace, metaOf(obj).GetName()); cur != nil {
				c.remove(t, lastVersion(cur), cur, d)
			}
		}
	}
}
