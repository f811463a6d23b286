package cluster

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// workloads are the workloads the Cluster keeps beside its Deployments
// (which it keeps itself, store.go): every other kind of the registry, by
// kind and "namespace/name", with the ControllerRevisions that are their
// history. They live in the Cluster, under its lock, because their views
// and fleet rows read its pods and nodes.
type workloads struct {
	byKind    map[kind.Kind]map[string]kind.Workload
	revisions map[string]*appsv1.ControllerRevision
	// revisionsByOwner indexes revisions by their controller's UID.
	revisionsByOwner index[types.UID]
	// analysisRuns are Argo's AnalysisRuns, which decide its Rollouts'
	// steps (rollout_argo.go), indexed by their owner Rollout's UID.
	analysisRuns        map[string]*argo.AnalysisRun
	analysisRunsByOwner index[types.UID]
}

func newWorkloads() *workloads {
	return &workloads{
		byKind:              map[kind.Kind]map[string]kind.Workload{},
		revisions:           map[string]*appsv1.ControllerRevision{},
		revisionsByOwner:    index[types.UID]{},
		analysisRuns:        map[string]*argo.AnalysisRun{},
		analysisRunsByOwner: index[types.UID]{},
	}
}

// heldAs is the workload of kind k held at key, as its typed object.
func heldAs[T any](w *workloads, k kind.Kind, key string) (T, bool) {
	if wl, ok := w.byKind[k][key]; ok {
		o, ok := wl.Object().(T)
		return o, ok
	}
	var none T
	return none, false
}

// putWorkload keeps a workload (a ReplicationController for the fleet
// too: Apply also keeps them apart for their own view) or a
// ControllerRevision; false for other objects or an unchanged one.
func (c *Cluster) putWorkload(obj runtime.Object, u update) bool {
	if wl, ok := kind.Of(obj); ok {
		return c.keepWorkload(wl, u)
	}
	if run, ok := obj.(*argo.AnalysisRun); ok && run != nil {
		return c.putAnalysisRun(run)
	}
	o, ok := obj.(*appsv1.ControllerRevision)
	if !ok || o == nil {
		return false
	}
	w := c.workloads
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

// keepWorkload keeps wl and marks its fleet row; false for the version
// already held.
func (c *Cluster) keepWorkload(wl kind.Workload, u update) bool {
	held := c.workloads.byKind[wl.Kind()]
	if held == nil {
		held = map[string]kind.Workload{}
		c.workloads.byKind[wl.Kind()] = held
	}
	key := objectKey(wl.GetNamespace(), wl.GetName())
	old, had := held[key]
	if had && sameResourceVersion(old, wl) {
		return false
	}
	held[key] = wl
	var was [4]int64
	if had {
		was = old.Figures()
	}
	c.fleetWorkload(fleetKey{wl.Kind(), wl.GetNamespace(), wl.GetName()}, wl.GetUID(), wl.Figures(), was, !had, u)
	return true
}

// deleteWorkload forgets a workload or a ControllerRevision.
func (c *Cluster) deleteWorkload(ref ObjectRef) bool {
	w, key := c.workloads, objectKey(ref.Namespace, ref.Name)
	if e, ok := kind.ForName(ref.Kind); ok {
		held := w.byKind[e.Kind]
		_, had := held[key]
		// The row goes; the rows read with it (an RC's update partner's)
		// are marked while it is still held.
		c.markRow(fleetKey{e.Kind, ref.Namespace, ref.Name})
		delete(held, key)
		return had
	}
	if ref.Kind == "AnalysisRun" {
		return c.deleteAnalysisRun(key)
	}
	if ref.Kind != "ControllerRevision" {
		return false
	}
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
