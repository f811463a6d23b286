package cluster

import (
	"fmt"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/kind"
)

// A fleet row is derived from what the watch delivered and nothing else:
// the state is the one kubectl and the controllers report, made specific by
// what the workload's pods and nodes show. Each kind has its builder, in its
// own file (kinds.go); all of them run under the Cluster's read lock, when
// Apply marked the row dirty.

// fleetEntry is one workload's row as last derived.
type fleetEntry struct {
	row FleetRow
	// waits is set for a rollout under way that nothing else explains:
	// it reads stuck once its figures have not moved for fleetStuckAfter
	// (row.Changed is when they last moved).
	waits bool
	// clocked is set when Why counts with the clock ("not ready for
	// 12s"): the row is derived again when the second changes.
	clocked bool
	// podsMatter is set when the row read every pod of rss (the blocker
	// line of a rollout under way): any change of one marks it. uid is the
	// workload's.
	podsMatter bool
	uid        types.UID
	// gone is set when the row went; built is the last build that placed
	// it (standing.go).
	gone  bool
	built uint64
	// A deployment's new ReplicaSet, found for d among rss: while their
	// specs stay as they were, finding it again (comparing templates) is
	// spared (fleetEntry.newReplicaSet).
	d     *appsv1.Deployment
	rss   []*appsv1.ReplicaSet
	newRS *appsv1.ReplicaSet
}

// deriveFleet derives the row of k at now; false when k has no row (gone,
// or the next controller of an RC update, which its old one's row shows).
func (c *Cluster) deriveFleet(k fleetKey, now time.Time) (fleetEntry, bool) {
	wk := kinds[k.kind]
	if wk.row == nil {
		return fleetEntry{}, false
	}
	w, ok := wk.find(c, k)
	if !ok {
		return fleetEntry{}, false
	}
	e, ok := wk.row(c, k, w, now)
	e.row.Cluster = c.name
	return e, ok
}

// moved is when k's figures last moved: the latest of what Apply saw and
// since, the evidence the objects themselves carry from before the watch.
func (c *Cluster) moved(k fleetKey, since time.Time) time.Time {
	if t := c.fleetBook.movedAt[k]; t.After(since) {
		return t
	}
	return since
}

// fleetPods is what one pass over a workload's pods found.
type fleetPods struct {
	crash         *podFacts // the crash-looping pod that restarted most
	crashRestarts int32
	pull          *podFacts // an active pod whose image cannot be pulled
	pulls         int
	unschedulable *podFacts
	// onMovingNode: an active pod on a node a drain or roll is draining,
	// or a terminating one on a cordoned node.
	onMovingNode bool
}

func (c *Cluster) scanFleetPods(owners []types.UID, namespace string) fleetPods {
	var s fleetPods
	moving := c.fleetBook.movingNodes
	for _, uid := range owners {
		set := c.entriesByOwner[uid]
		if set == nil || set.flagged == 0 && len(moving) == 0 {
			// Nothing to name and no node to move off: the common case
			// costs no pass over the pods.
			continue
		}
		for _, pe := range set.list {
			f := &pe.facts
			if pe.pod.Namespace != namespace {
				continue
			}
			if len(moving) > 0 && f.bound && !s.onMovingNode {
				if n := moving[pe.pod.Spec.NodeName]; n != nil {
					s.onMovingNode = f.active && nodeDraining(n) || f.terminating
				}
			}
			if !f.active || set.flagged == 0 {
				continue
			}
			if f.looping {
				if n := podRestarts(f.pod); s.crash == nil || n > s.crashRestarts || n == s.crashRestarts && f.pod.Name < s.crash.pod.Name {
					s.crash, s.crashRestarts = f, n
				}
			}
			if f.pullReason != "" {
				s.pulls++
				if s.pull == nil || f.pod.Name < s.pull.pod.Name {
					s.pull = f
				}
			}
			if f.unschedulable && (s.unschedulable == nil || f.pod.Name < s.unschedulable.pod.Name) {
				s.unschedulable = f
			}
		}
	}
	return s
}

// moving reports whether the workload's pods are being moved off nodes:
// one sits on a node being drained while the workload is rolled out (done,
// or whole: only availability is left), or one went off such a node and the
// workload is whole but not yet done. The note of a lost pod is dropped
// once the row reads anything but a node roll.
func (s fleetPods) moving(c *Cluster, k fleetKey, done, whole bool) bool {
	switch {
	case s.onMovingNode:
		return done || whole
	case c.fleetBook.lost[k] != nil && whole && !done:
		c.fleetBook.lost[k].short = true
		return true
	}
	return false
}

// crashWhy names the pod that restarted most.
func (s fleetPods) crashWhy() string {
	p := s.crash.pod
	line := fmt.Sprintf("pod %s restarted %s", p.Name, model.Plural(s.crashRestarts, "time"))
	for i := range p.Status.ContainerStatuses {
		cs := &p.Status.ContainerStatuses[i]
		if w := cs.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" {
			line += " (CrashLoopBackOff)"
			break
		}
	}
	return line
}

func (s fleetPods) pullWhy() string {
	return fmt.Sprintf("image cannot be pulled — %s: %s (%s)", s.pull.pullImage, s.pull.pullReason, model.Plural(s.pulls, "pod"))
}

func differentImages(from, to []string) []string {
	if slices.Equal(from, to) {
		return nil
	}
	return from
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// podWorkload settles the state of a workload other than a Deployment from
// its pods (owned by uids), in the fleet's order: r.State is already paused or
// canary when the workload's own fields say so (fleetUnset otherwise);
// done is kubectl's verdict and whole says that only availability is left.
func (c *Cluster) podWorkload(k fleetKey, r *FleetRow, e *fleetEntry, uids []types.UID, status string, done, whole bool) {
	pods := c.scanFleetPods(uids, r.Namespace)
	switch {
	case pods.pull != nil:
		r.State, r.Why = FleetStuck, pods.pullWhy()
	case pods.crash != nil:
		r.State, r.Why = FleetCrashLooping, pods.crashWhy()
	case r.State != fleetUnset:
		// Paused or canary, from the workload's own fields.
	case pods.unschedulable != nil && !done:
		// Waits like any rollout (holdUnplaced): stuck once it has not
		// moved for fleetStuckAfter.
		r.State, r.Why, e.waits = FleetRolling, "new pods cannot be scheduled — "+unschedulableWhy(pods.unschedulable.pod, func(p string) []*corev1.Event { return c.podEvents(r.Namespace, p) }), true
	case pods.moving(c, k, done, whole):
		r.State, r.Why = FleetNodeRoll, "its pods are moving off nodes being drained"
	case !done:
		r.State, r.Why, e.waits = FleetRolling, status, true
	default:
		r.State = FleetComplete
	}
	if r.Word == "" || r.State != FleetCanary {
		r.Word = r.State.String()
	}
	e.row = *r
}

// The states' zero: FleetFailed is 0, so builders start from a state no
// check sets and podWorkload fills.
const fleetUnset FleetState = -1

// workloadRow is the row of a workload other than a Deployment before its
// kind's builder fills in the figures and the state: names, images, and
// its creation as the start of its story.
func workloadRow(w kind.Workload) FleetRow {
	r := FleetRow{Namespace: w.GetNamespace(), Kind: w.Kind(), Name: w.GetName(), State: fleetUnset, Since: w.GetCreationTimestamp().Time}
	if t := w.Template(); t != nil {
		r.Images = containerImages(t)
	}
	return r
}

// podRestarts is the most restarts of the pod's containers.
func podRestarts(p *corev1.Pod) int32 {
	var n int32
	for i := range p.Status.ContainerStatuses {
		n = max(n, p.Status.ContainerStatuses[i].RestartCount)
	}
	return n
}
