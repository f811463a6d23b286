package cluster

import (
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/kind"
)

// The fleet is read on every refresh, up to 20 times a second, over every
// workload of the cluster. Deriving 2,000 rows each time would cost what the
// cluster holds instead of what changed, so each row is kept and derived
// again only when Apply marked it dirty: its workload, its ReplicaSets or
// revisions, one of its pods, a node under its pods, or an event about one
// of its pods changed. This file is the marking; standing.go reads it.

// fleetKey names a workload of the fleet.
type fleetKey struct {
	kind            kind.Kind
	namespace, name string
}

// fleetBook is the fleet's bookkeeping. Apply writes it under the Cluster's
// write lock; Fleet derives rows under the read lock and the book's own.
type fleetBook struct {
	mu sync.Mutex

	entries map[fleetKey]*fleetEntry
	// dirty are the rows to derive again.
	dirty map[fleetKey]bool
	// byUID finds a workload from a pod's or revision's owner; rsOwner a
	// ReplicaSet's Deployment.
	byUID   map[types.UID]fleetKey
	rsOwner map[types.UID]types.UID
	// movedAt is when a workload's progress figures (its own and its
	// ReplicaSets' replicas, updated, ready, available) last moved while
	// watched; revisedAt when its revision last changed.
	movedAt, revisedAt map[fleetKey]time.Time
	// lost marks workloads that had a pod go off a node being drained or
	// cordoned: until they are whole again their pods are moving.
	lost map[fleetKey]*lostPod
	// blockedNodes are the nodes whose drain a PodDisruptionBudget holds:
	// the only ones the blocker line reads. movingNodes are the nodes pods
	// are being moved off (nodeMoving): usually none.
	blockedNodes, movingNodes map[string]*corev1.Node

	// clocked are the rows whose Why counts with the clock, derived again
	// when clockSecond, now's second at the last refresh, changes.
	clocked     map[fleetKey]bool
	clockSecond int64
	// readsPods are the pod owners (ReplicaSets, by UID) whose workload's
	// row reads every pod: one lookup for each pod Apply sees.
	readsPods map[types.UID]bool
	// nsCount is how many rows each namespace has.
	nsCount map[string]int
	// warned are the namespaces a pod's Warning event was seen in
	// (podsneeded.go).
	warned map[string]bool

	// version counts changes to the rows; views are the sorted rows of
	// each namespace asked for, kept until the version moves.
	version uint64
	views   map[string]*fleetView
	builds  uint64
}

func newFleetBook() *fleetBook {
	return &fleetBook{
		entries:      map[fleetKey]*fleetEntry{},
		dirty:        map[fleetKey]bool{},
		byUID:        map[types.UID]fleetKey{},
		rsOwner:      map[types.UID]types.UID{},
		movedAt:      map[fleetKey]time.Time{},
		revisedAt:    map[fleetKey]time.Time{},
		lost:         map[fleetKey]*lostPod{},
		blockedNodes: map[string]*corev1.Node{},
		movingNodes:  map[string]*corev1.Node{},
		views:        map[string]*fleetView{},
		clocked:      map[fleetKey]bool{},
		nsCount:      map[string]int{},
		readsPods:    map[types.UID]bool{},
		warned:       map[string]bool{},
	}
}

func (b *fleetBook) mark(k fleetKey) { b.dirty[k] = true }

// markOwner marks the workload a pod's controlling owner belongs to: the
// owner itself, or the Deployment of its ReplicaSet.
func (c *Cluster) markOwner(uid types.UID) {
	b := c.fleetBook
	if d, ok := b.rsOwner[uid]; ok {
		uid = d
	}
	if k, ok := b.byUID[uid]; ok {
		c.markRow(k)
	}
}

// podsMatter reports whether the row of the pod owner's workload reads its
// pods in full: a deployment's rollout under way, for its blocker line.
func (b *fleetBook) podsMatter(owner types.UID) bool { return b.readsPods[owner] }

// The hooks Apply's put and delete steps call.

func (c *Cluster) fleetDeployment(old, d *appsv1.Deployment, u update) {
	b, k := c.fleetBook, fleetKey{kind.Deployment, d.Namespace, d.Name}
	if old != nil && old.UID != d.UID {
		delete(b.byUID, old.UID)
	}
	b.byUID[d.UID] = k
	b.mark(k)
	switch {
	case old == nil:
		if u.synced {
			b.movedAt[k] = u.at
		}
	case figuresOf(old) != figuresOf(d):
		b.movedAt[k] = u.at
	}
	if old != nil && old.Annotations[model.RevisionAnnotation] != d.Annotations[model.RevisionAnnotation] {
		b.revisedAt[k] = u.at
	}
}

// figuresOf are a workload's progress figures (none for a nil one).
func figuresOf(o any) [4]int64 {
	if w, ok := kind.Of(o); ok {
		return w.Figures()
	}
	return [4]int64{}
}

func (c *Cluster) fleetReplicaSet(old, rs *appsv1.ReplicaSet, u update) {
	b := c.fleetBook
	if old != nil {
		if owner, has := replicaSetOwner(old); has {
			c.markOwner(old.UID)
			if cur, _ := replicaSetOwner(rs); cur != owner {
				delete(b.rsOwner, old.UID)
			}
		}
	}
	owner, has := replicaSetOwner(rs)
	if !has {
		return
	}
	b.rsOwner[rs.UID] = owner
	c.markOwner(rs.UID)
	if old == nil && !u.synced || old != nil && replicaSetFigures(old) == replicaSetFigures(rs) {
		return
	}
	if k, ok := b.byUID[owner]; ok {
		b.movedAt[k] = u.at
	}
}

func replicaSetFigures(rs *appsv1.ReplicaSet) [4]int32 {
	s := rs.Status
	return [4]int32{model.SpecReplicas(rs), s.Replicas, s.ReadyReplicas, s.AvailableReplicas}
}

func (c *Cluster) fleetReplicaSetGone(rs *appsv1.ReplicaSet) {
	b := c.fleetBook
	c.markOwner(rs.UID)
	delete(b.rsOwner, rs.UID)
}

// fleetPod marks the pod's workload when what its row reads of the pod
// changed, and notes a pod leaving a node being drained.
func (c *Cluster) fleetPod(old *podEntry, cur *podEntry, at time.Time) {
	b := c.fleetBook
	if old != nil && cur != nil && sameFleetFacts(&old.facts, &cur.facts) && old.pod.Spec.NodeName == cur.pod.Spec.NodeName {
		return
	}
	// Most rows read a pod only for what flags it and for the node it is
	// on; a rolled-out workload's pods coming and going, or turning ready,
	// leave its row as it was (its status figures come with it).
	named := false
	for _, pe := range []*podEntry{old, cur} {
		named = named || pe != nil && (podFlagged(pe) || c.nodeMoving(pe.pod.Spec.NodeName))
	}
	for i, pe := range []*podEntry{old, cur} {
		if pe == nil || pe.facts.owner == "" || i == 1 && old != nil && old.facts.owner == pe.facts.owner {
			continue
		}
		if named || b.podsMatter(pe.facts.owner) {
			c.markOwner(pe.facts.owner)
		}
	}
	if old != nil && !old.facts.terminating && (cur == nil || cur.facts.terminating) && c.nodeMoving(old.pod.Spec.NodeName) {
		uid := old.facts.owner
		if d, ok := b.rsOwner[uid]; ok {
			uid = d
		}
		if k, ok := b.byUID[uid]; ok {
			b.lost[k] = &lostPod{at: at}
		}
	}
}

// sameFleetFacts compares what the rows read of a pod.
func sameFleetFacts(a, b *podFacts) bool {
	return a.owner == b.owner && a.terminating == b.terminating && a.active == b.active &&
		a.pullReason == b.pullReason && a.restarts == b.restarts && a.looping == b.looping && a.unschedulable == b.unschedulable &&
		a.bound == b.bound && a.ready == b.ready && a.since.Equal(b.since)
}

// nodeMoving reports whether pods on the node are being moved off it: a
// drain or a node roll is draining it, or it is cordoned.
func (c *Cluster) nodeMoving(name string) bool {
	return c.fleetBook.movingNodes[name] != nil
}

// nodeDraining reports whether the node's drain annotations say a drain
// is evicting its pods now: more exact than cordoned, which a node also is
// before and long after a drain.
func nodeDraining(n *corev1.Node) bool {
	a := n.Annotations
	switch {
	case a[model.DrainStateAnnotation] == model.DrainDraining, a[model.DrainStateAnnotation] == model.DrainBlocked:
		return true
	case a[model.RollNodeAnnotation] == model.RollStepDraining:
		return true
	}
	return false
}

func (c *Cluster) fleetNode(old, n *corev1.Node) {
	b := c.fleetBook
	if n != nil && n.Annotations[model.DrainStateAnnotation] == model.DrainBlocked {
		b.blockedNodes[n.Name] = n
	} else if old != nil {
		delete(b.blockedNodes, old.Name)
	}
	if n != nil && (n.Spec.Unschedulable || nodeDraining(n)) {
		b.movingNodes[n.Name] = n
	} else if old != nil {
		delete(b.movingNodes, old.Name)
	}
	if old != nil && n != nil && old.Spec.Unschedulable == n.Spec.Unschedulable &&
		sameAnnotations(old, n, model.DrainStateAnnotation, model.DrainBlockedAnnotation, model.RollNodeAnnotation) {
		return
	}
	name := ""
	if n != nil {
		name = n.Name
	} else if old != nil {
		name = old.Name
	}
	for key := range c.podsByNode[name] {
		if pe := c.pods[key]; pe != nil && pe.facts.owner != "" {
			c.markOwner(pe.facts.owner)
		}
	}
}

func sameAnnotations(a, b *corev1.Node, keys ...string) bool {
	for _, k := range keys {
		if a.Annotations[k] != b.Annotations[k] {
			return false
		}
	}
	return true
}

// fleetEvent marks the workload of a pod the event is about: the blocker
// line quotes the scheduler's and the kubelet's events.
func (c *Cluster) fleetEvent(e *corev1.Event) {
	if e.InvolvedObject.Kind != "Pod" {
		return
	}
	if e.Type == corev1.EventTypeWarning {
		c.fleetBook.warned[e.InvolvedObject.Namespace] = true
	}
	pe := c.pods[objectKey(e.InvolvedObject.Namespace, e.InvolvedObject.Name)]
	if pe != nil && pe.facts.owner != "" && (podFlagged(pe) || c.fleetBook.podsMatter(pe.facts.owner)) {
		c.markOwner(pe.facts.owner)
	}
}

// fleetWorkload marks the row of a workload the store keeps (k, with
// uid), new or with figures that were oldFigures.
func (c *Cluster) fleetWorkload(k fleetKey, uid types.UID, figures, oldFigures [4]int64, isNew bool, u update) {
	b := c.fleetBook
	if uid != "" {
		b.byUID[uid] = k
	}
	c.markRow(k)
	// These kinds carry no record of when they last progressed: until the
	// watch has seen them for fleetStuckAfter, they are not called stuck.
	if _, seen := b.movedAt[k]; isNew && !seen || !isNew && figures != oldFigures {
		b.movedAt[k] = u.at
	}
}

// fleetRevision marks the owner of a ControllerRevision.
func (c *Cluster) fleetRevision(r *appsv1.ControllerRevision) {
	if owner, has := controllerUID(r); has {
		c.markOwner(owner)
	}
}

// lostPod is a workload's pod gone off a node being drained: at is when;
// short is set once the workload was seen short of it. The workload's
// status may say so a batch or more after the pod went.
type lostPod struct {
	at    time.Time
	short bool
}

// over reports whether the move is over for a row that does not read node
// roll: it was seen short and is no longer, or it never was for a while.
func (l *lostPod) over(now time.Time) bool {
	return l.short || now.Sub(l.at) >= fleetStuckAfter
}

// podsHeldMoved marks the rows of the namespaces whose pods the picture
// came to hold: derived without them, a row said kubectl's sentence; now
// it reads them. (The watch only widens: no namespace stops being held.)
func (c *Cluster) podsHeldMoved(was, now WatchStatus) {
	if was.PodsNarrowed == now.PodsNarrowed && was.PodNamespaces == now.PodNamespaces {
		return
	}
	for k := range c.fleetBook.entries {
		if was.HoldsPods(k.namespace) != now.HoldsPods(k.namespace) {
			c.markRow(k)
		}
	}
}
