package cluster

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// workloads are the StatefulSets and DaemonSets the console shows, with the
// ControllerRevisions that are their history. They live in the Cluster, under
// its lock, because their views read its pods and nodes.
type workloads struct {
	sets      map[string]*appsv1.StatefulSet
	daemons   map[string]*appsv1.DaemonSet
	revisions map[string]*appsv1.ControllerRevision
	// revisionsByOwner indexes revisions by their controller's UID.
	revisionsByOwner index[types.UID]
}

func newWorkloads() *workloads {
	return &workloads{
		sets:             map[string]*appsv1.StatefulSet{},
		daemons:          map[string]*appsv1.DaemonSet{},
		revisions:        map[string]*appsv1.ControllerRevision{},
		revisionsByOwner: index[types.UID]{},
	}
}

// putWorkload keeps a StatefulSet, DaemonSet, ReplicationController (for
// the fleet; Apply also keeps them apart for their own view) or
// ControllerRevision; false for other objects or an unchanged one.
func (c *Cluster) putWorkload(obj runtime.Object, u update) bool {
	w := c.workloads
	switch o := obj.(type) {
	case *appsv1.StatefulSet:
		if o == nil {
			return false
		}
		old := w.sets[objectKey(o.Namespace, o.Name)]
		if !putKept(w.sets, objectKey(o.Namespace, o.Name), o) {
			return false
		}
		c.fleetWorkload(FleetStatefulSet, o.Namespace, o.Name, o.UID, statefulSetFigures(o), statefulSetFigures(old), old == nil, u)
		return true
	case *appsv1.DaemonSet:
		if o == nil {
			return false
		}
		old := w.daemons[objectKey(o.Namespace, o.Name)]
		if !putKept(w.daemons, objectKey(o.Namespace, o.Name), o) {
			return false
		}
		c.fleetWorkload(FleetDaemonSet, o.Namespace, o.Name, o.UID, daemonSetFigures(o), daemonSetFigures(old), old == nil, u)
		return true
	case *corev1.ReplicationController:
		if o == nil {
			return false
		}
		rcs := c.fleetBook.rcs
		old := rcs[objectKey(o.Namespace, o.Name)]
		if !putKept(rcs, objectKey(o.Namespace, o.Name), o) {
			return false
		}
		if old != nil {
			// The partners it named before are marked too.
			c.fleetBook.markRC(fleetKey{FleetReplicationController, old.Namespace, old.Name})
		}
		c.fleetWorkload(FleetReplicationController, o.Namespace, o.Name, o.UID, rcFigures(o), rcFigures(old), old == nil, u)
		return true
	case *appsv1.ControllerRevision:
		if o == nil {
			return false
		}
		key := objectKey(o.Namespace, o.Name)
		old := w.revisions[key]
		if old != nil && sameResourceVersion(old, o) {
			return false
		}
		var oldOwner types.UID
		hadOwner := false
		if old != nil {
			oldOwner, hadOwner = controllerUID(old)
			c.fleetRevision(old)
		}
		owner, hasOwner := controllerUID(o)
		w.revisionsByOwner.move(oldOwner, hadOwner, owner, hasOwner, key)
		w.revisions[key] = o
		c.fleetRevision(o)
		return true
	}
	return false
}

func putKept[T interface {
	comparable
	GetResourceVersion() string
}](m map[string]T, key string, o T) bool {
	if old, ok := m[key]; ok && old.GetResourceVersion() != "" && old.GetResourceVersion() == o.GetResourceVersion() {
		return false
	}
	m[key] = o
	return true
}

// deleteWorkload forgets a StatefulSet, DaemonSet, ReplicationController
// or ControllerRevision.
func (c *Cluster) deleteWorkload(ref ObjectRef) bool {
	w, key := c.workloads, objectKey(ref.Namespace, ref.Name)
	gone := func(kind string) {
		k := fleetKey{kind, ref.Namespace, ref.Name}
		if kind == FleetReplicationController {
			c.fleetBook.markRC(k)
		} else {
			c.fleetBook.mark(k)
		}
	}
	switch ref.Kind {
	case "StatefulSet":
		_, ok := w.sets[key]
		delete(w.sets, key)
		gone(FleetStatefulSet)
		return ok
	case "DaemonSet":
		_, ok := w.daemons[key]
		delete(w.daemons, key)
		gone(FleetDaemonSet)
		return ok
	case "ReplicationController":
		_, ok := c.fleetBook.rcs[key]
		gone(FleetReplicationController)
		delete(c.fleetBook.rcs, key)
		return ok
	case "ControllerRevision":
		r, ok := w.revisions[key]
		if !ok {
			return false
		}
		if owner, has := controllerUID(r); has {
			w.revisionsByOwner.remove(owner, key)
		}
		c.fleetRevision(r)
		delete(w.revisions, key)
		return true
	}
	return false
}

// ownedRevisions are the revisions whose controller has uid, oldest first.
func (c *Cluster) ownedRevisions(namespace string, uid types.UID) []*appsv1.ControllerRevision {
	var out []*appsv1.ControllerRevision
	for _, key := range c.workloads.revisionsByOwner.sorted(uid) {
		if r := c.workloads.revisions[key]; r != nil && r.Namespace == namespace {
			out = append(out, r)
		}
	}
	model.SortRevisions(out)
	return out
}
