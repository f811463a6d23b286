package cluster

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/kind"
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
	if wl, ok := kind.Of(obj); ok {
		s, kept := stores[wl.Kind()]
		return kept && s.put(c, obj, u)
	}
	switch o := obj.(type) {
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
	gone := func(fleetKind string) {
		k := fleetKey{fleetKind, ref.Namespace, ref.Name}
		if fleetKind == FleetReplicationController {
			c.fleetBook.markRC(k)
		} else {
			c.fleetBook.mark(k)
		}
	}
	if e, ok := kind.ForName(ref.Kind); ok {
		s, kept := stores[e.Kind]
		return kept && s.forget(c, key, gone)
	}
	switch ref.Kind {
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

// store is how the cluster keeps one workload kind beside its Deployments
// (which it keeps itself): put keeps an object and its fleet line, false
// for an unchanged one; forget drops one, marking its fleet line gone.
type store struct {
	put    func(c *Cluster, obj runtime.Object, u update) bool
	forget func(c *Cluster, key string, gone func(fleetKind string)) bool
}

// stores are the workload kinds the cluster keeps in its own maps, by kind.
var stores = map[kind.Kind]store{
	kind.StatefulSet: {
		put: func(c *Cluster, obj runtime.Object, u update) bool {
			_, kept := putFleet(c, c.workloads.sets, obj.(*appsv1.StatefulSet), FleetStatefulSet, statefulSetFigures, u)
			return kept
		},
		forget: func(c *Cluster, key string, gone func(string)) bool {
			ok := forget(c.workloads.sets, key)
			gone(FleetStatefulSet)
			return ok
		},
	},
	kind.DaemonSet: {
		put: func(c *Cluster, obj runtime.Object, u update) bool {
			_, kept := putFleet(c, c.workloads.daemons, obj.(*appsv1.DaemonSet), FleetDaemonSet, daemonSetFigures, u)
			return kept
		},
		forget: func(c *Cluster, key string, gone func(string)) bool {
			ok := forget(c.workloads.daemons, key)
			gone(FleetDaemonSet)
			return ok
		},
	},
	kind.ReplicationController: {
		put: func(c *Cluster, obj runtime.Object, u update) bool {
			old, kept := putFleet(c, c.fleetBook.rcs, obj.(*corev1.ReplicationController), FleetReplicationController, rcFigures, u)
			if kept && old != nil {
				// The partners it named before are marked too.
				c.fleetBook.markRC(fleetKey{FleetReplicationController, old.Namespace, old.Name})
			}
			return kept
		},
		forget: func(c *Cluster, key string, gone func(string)) bool {
			_, ok := c.fleetBook.rcs[key]
			gone(FleetReplicationController)
			delete(c.fleetBook.rcs, key)
			return ok
		},
	},
}

// putFleet keeps o in m and its line in the fleet; false for an unchanged
// object. old is the one it replaced.
func putFleet[T interface {
	comparable
	metav1.Object
}](c *Cluster, m map[string]T, o T, fleetKind string, figures func(T) [4]int64, u update) (old T, kept bool) {
	key := objectKey(o.GetNamespace(), o.GetName())
	old = m[key]
	if !putKept(m, key, o) {
		return old, false
	}
	var none T
	c.fleetWorkload(fleetKind, o.GetNamespace(), o.GetName(), o.GetUID(), figures(o), figures(old), old == none, u)
	return old, true
}

// forget drops key from m; false when it was not there.
func forget[T any](m map[string]T, key string) bool {
	_, ok := m[key]
	delete(m, key)
	return ok
}
