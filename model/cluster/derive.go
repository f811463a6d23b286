package cluster

import (
	"fmt"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// A fleet row is derived from what the watch delivered and nothing else:
// the state is the one kubectl and the controllers report, made specific by
// what the workload's pods and nodes show. Each kind has its builder; all of
// them run under the Cluster's read lock, when Apply marked the row dirty.

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
	// A deployment's new ReplicaSet, found for d among rss: when a pod
	// changed and they did not, finding it again (comparing templates) is
	// spared. Objects are replaced, never modified, so pointers compare.
	d     *appsv1.Deployment
	rss   []*appsv1.ReplicaSet
	newRS *appsv1.ReplicaSet
}

// newReplicaSet is FindNewReplicaSet, from e when d and rss are the ones
// it was found among.
func (e *fleetEntry) newReplicaSet(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	if e != nil && e.d == d && slices.Equal(e.rss, rss) {
		return e.newRS
	}
	return model.FindNewReplicaSet(d, rss)
}

// deriveFleet derives the row of k at now; false when k has no row (gone,
// or the next controller of an RC update, which its old one's row shows).
func (c *Cluster) deriveFleet(k fleetKey, now time.Time) (fleetEntry, bool) {
	key := objectKey(k.namespace, k.name)
	switch k.kind {
	case FleetDeployment:
		if d := c.deployments[key]; d != nil {
			return c.deploymentFleet(k, d, now), true
		}
	case FleetStatefulSet:
		if s := c.workloads.sets[key]; s != nil {
			return c.statefulSetFleet(k, s), true
		}
	case FleetDaemonSet:
		if ds := c.workloads.daemons[key]; ds != nil {
			return c.daemonSetFleet(k, ds), true
		}
	case FleetReplicationController:
		if rc := c.fleetBook.rcs[key]; rc != nil {
			return c.rcFleet(k, rc)
		}
	}
	return fleetEntry{}, false
}

// moved is when k's figures last moved: the latest of what Apply saw and
// since, the evidence the objects themselves carry from before the watch.
func (c *Cluster) moved(k fleetKey, since time.Time) time.Time {
	if t := c.fleetBook.movedAt[k]; t.After(since) {
		return t
	}
	return since
}

func (c *Cluster) deploymentFleet(k fleetKey, d *appsv1.Deployment, now time.Time) fleetEntry {
	rss := c.ownedReplicaSets(d)
	newRS := c.fleetBook.entries[k].newReplicaSet(d, rss)
	status, done := rolloutStatus(d)
	r := FleetRow{
		Namespace: d.Namespace, Kind: FleetDeployment, Name: d.Name,
		Revision:  revisionOrZero(d),
		Images:    containerImages(&d.Spec.Template),
		Desired:   model.DesiredReplicas(d),
		Updated:   d.Status.UpdatedReplicas,
		Available: d.Status.AvailableReplicas,
		Since:     d.CreationTimestamp.Time,
	}
	evidence := d.CreationTimestamp.Time
	if newRS != nil {
		r.Since = newRS.CreationTimestamp.Time
		r.ChangeCause = changeCause(newRS)
		if rev := revisionOrZero(newRS); rev > 0 {
			r.Revision = rev
		}
		evidence = later(evidence, r.Since)
	}
	if t := c.fleetBook.revisedAt[k]; t.After(r.Since) {
		// A rollback reuses an old ReplicaSet: its rollout began when the
		// revision moved, not when that ReplicaSet was made.
		r.Since = t
	}
	if p := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); p != nil {
		// The controller moves lastUpdateTime when the rollout progresses.
		evidence = later(evidence, p.LastUpdateTime.Time)
	}
	r.Changed = c.moved(k, evidence)
	if !done {
		r.From = rollingFrom(d, rss, newRS)
	}
	owners := make([]types.UID, len(rss))
	for i, rs := range rss {
		owners[i] = rs.UID
	}
	pods := c.scanFleetPods(owners, d.Namespace)
	canary, isCanary, _ := model.ReadCanary(d)
	isCanary = isCanary && model.CanaryCurrent(d, canary)
	e := fleetEntry{d: d, rss: rss, newRS: newRS, uid: d.UID}
	var line string
	var why hold
	if !isCanary {
		// A canary's hold is its technique, not a blocker (RolloutView does
		// the same).
		line, why = c.diagnose(d, rss, newRS, now)
		e.podsMatter = !done
	}
	_, _, deadline := model.RolloutStatus(d, 0)
	switch {
	case deadline != nil:
		r.State, r.Why = FleetFailed, status
	case isCanary && canary.State.Phase == model.CanaryFailed:
		r.State, r.Why = FleetStuck, fmt.Sprintf("canary step %d/%d: gate failed — %s (promote or abort)", canary.State.Step, canary.Plan.Last(), canary.State.Gate)
	case why == holdStuck:
		r.State, r.Why = FleetStuck, line
	case pods.pull != nil:
		r.State, r.Why = FleetStuck, pods.pullWhy()
	case why == holdCrash:
		r.State, r.Why = FleetCrashLooping, line
	case pods.crash != nil:
		r.State, r.Why = FleetCrashLooping, pods.crashWhy()
	case d.Spec.Paused:
		r.State, r.Why = FleetPaused, pausedLine(d)
	case isCanary:
		r.State, r.Why = FleetCanary, canaryWhy(canary)
	case pods.moving(c, k, done, availabilityOnly(d)):
		r.State, r.Why = FleetNodeRoll, "its pods are moving off nodes being drained"
	case !done:
		r.State, r.Why, e.waits = FleetRolling, line, true
		if r.Why == "" {
			r.Why = status
		}
	default:
		r.State = FleetComplete
	}
	r.Word = r.State.String()
	if r.State == FleetCanary {
		r.Word = fmt.Sprintf("canary step %d/%d", canary.State.Step, canary.Plan.Last())
	}
	// Only what time fixes counts with the clock ("not ready for 12s").
	e.row, e.clocked = r, r.State == FleetRolling && why == holdWaits
	return e
}

// availabilityOnly reports whether all that is left of d's rollout is
// replacing pods: every pod it has runs the current template, as after a
// pod was evicted from a drained node (its replacement may not even be
// created yet, when the updated count is short too).
func availabilityOnly(d *appsv1.Deployment) bool {
	s := d.Status
	return s.ObservedGeneration >= d.Generation && s.Replicas <= s.UpdatedReplicas
}

// diagnose is the blocker line with its kind, reading only the nodes a
// budget holds a drain on.
func (c *Cluster) diagnose(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, now time.Time) (string, hold) {
	scan := c.scanTallies(d.Namespace, rss)
	isOurs := func(pod string) bool {
		pe := c.pods[objectKey(d.Namespace, pod)]
		return pe != nil && slices.ContainsFunc(rss, func(rs *appsv1.ReplicaSet) bool { return pe.facts.owner == rs.UID })
	}
	var nodes []*corev1.Node
	for _, n := range c.fleetBook.blockedNodes {
		nodes = append(nodes, n)
	}
	eventsOf := func(pod string) []*corev1.Event { return c.podEvents(d.Namespace, pod) }
	return diagnose(rolloutParts{d: d, rss: rss, nodes: nodes, eventsOf: eventsOf, now: now, newRS: newRS, newKnown: true}, scan, isOurs)
}

func canaryWhy(cn model.Canary) string {
	step := cn.Plan.Step(cn.State.Step)
	switch {
	case cn.State.Phase == model.CanaryRolling:
		return "last step: rolling out on the deployment's own strategy"
	case step.Hold == model.CanaryHoldPause:
		return fmt.Sprintf("%d pods on the new version, holding for promote", step.Pods)
	case step.Hold != "":
		return fmt.Sprintf("%d pods on the new version, holding %s", step.Pods, step.Hold)
	}
	return fmt.Sprintf("%d pods on the new version", step.Pods)
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

// rollingFrom is the images of the newest old ReplicaSet that still has
// pods, when they differ from the deployment's.
func rollingFrom(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []string {
	var from *appsv1.ReplicaSet
	for _, rs := range rss {
		if rs == newRS || rs.Status.Replicas == 0 {
			continue
		}
		if from == nil || revisionOrZero(rs) > revisionOrZero(from) {
			from = rs
		}
	}
	if from == nil {
		return nil
	}
	return differentImages(containerImages(&from.Spec.Template), containerImages(&d.Spec.Template))
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

// podWorkload settles the state of a StatefulSet, DaemonSet or RC from its
// pods (owned by uids), in the fleet's order: r.State is already paused or
// canary when the workload's own fields say so (fleetUnset otherwise);
// done is kubectl's verdict and whole says that only availability is left.
func (c *Cluster) podWorkload(k fleetKey, r *FleetRow, e *fleetEntry, uids []types.UID, status string, done, whole bool) {
	pods := c.scanFleetPods(uids, r.Namespace)
	switch {
	case pods.pull != nil:
		r.State, r.Why = FleetStuck, pods.pullWhy()
	case pods.unschedulable != nil && !done:
		r.State, r.Why = FleetStuck, "new pods cannot be scheduled — "+unschedulableWhy(pods.unschedulable.pod, func(p string) []*corev1.Event { return c.podEvents(r.Namespace, p) })
	case pods.crash != nil:
		r.State, r.Why = FleetCrashLooping, pods.crashWhy()
	case r.State != fleetUnset:
		// Paused or canary, from the workload's own fields.
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

func (c *Cluster) statefulSetFleet(k fleetKey, s *appsv1.StatefulSet) fleetEntry {
	msg, done, err := model.StatefulSetRolloutStatus(s)
	st := s.Status
	r := FleetRow{Namespace: s.Namespace, Kind: FleetStatefulSet, Name: s.Name, State: fleetUnset,
		Images: containerImages(&s.Spec.Template), Desired: model.StatefulSetReplicas(s),
		Updated: st.UpdatedReplicas, Available: st.AvailableReplicas, Since: s.CreationTimestamp.Time}
	pending := st.UpdateRevision != "" && st.CurrentRevision != "" && st.UpdateRevision != st.CurrentRevision
	if update := c.workloads.revisions[objectKey(s.Namespace, st.UpdateRevision)]; update != nil {
		r.Revision, r.Since, r.ChangeCause = update.Revision, later(r.Since, update.CreationTimestamp.Time), update.Annotations[model.ChangeCauseAnnotation]
	} else {
		r.Revision = latestRevision(c.ownedRevisions(s.Namespace, s.UID))
	}
	if current := c.workloads.revisions[objectKey(s.Namespace, st.CurrentRevision)]; pending && current != nil {
		if t, err := model.RevisionTemplate(current); err == nil {
			r.From = differentImages(containerImages(&t), r.Images)
		}
	}
	r.Changed = c.moved(k, r.Since)
	status := statusLine(msg, err)
	replicas, partition := model.StatefulSetReplicas(s), model.StatefulSetPartition(s)
	switch {
	case err != nil:
		// OnDelete: kubectl follows no rollout; pods take the update when
		// someone deletes them.
		done = true
		if pending && st.UpdatedReplicas < replicas {
			r.State, r.Why = FleetPaused, fmt.Sprintf("OnDelete: %d of %d pods updated; the others take the update when deleted", st.UpdatedReplicas, replicas)
		}
	case done && pending && partition >= replicas:
		r.State, r.Why = FleetPaused, fmt.Sprintf("partition %d holds every pod at the current revision; lower it (sts-partition) to roll", partition)
	case done && pending && partition > 0:
		// A partition held above 0 is a canary: the ordinals from it up run
		// the update, those below wait for the partition to come down.
		r.State, r.Word = FleetCanary, fmt.Sprintf("canary %d/%d pods", st.UpdatedReplicas, replicas)
		r.Why = fmt.Sprintf("partition %d: ordinals below it stay at the current revision", partition)
	}
	// Whole but for pods being replaced: no update pending.
	whole := st.ObservedGeneration >= s.Generation && !pending
	e := fleetEntry{}
	c.podWorkload(k, &r, &e, []types.UID{s.UID}, status, done, whole)
	return e
}

func latestRevision(revs []*appsv1.ControllerRevision) int64 {
	var n int64
	for _, r := range revs {
		n = max(n, r.Revision)
	}
	return n
}

func (c *Cluster) daemonSetFleet(k fleetKey, ds *appsv1.DaemonSet) fleetEntry {
	msg, done, err := model.DaemonSetRolloutStatus(ds)
	st := ds.Status
	r := FleetRow{Namespace: ds.Namespace, Kind: FleetDaemonSet, Name: ds.Name, State: fleetUnset,
		Images: containerImages(&ds.Spec.Template), Desired: st.DesiredNumberScheduled,
		Updated: st.UpdatedNumberScheduled, Available: st.NumberAvailable, Since: ds.CreationTimestamp.Time}
	// The controller gives the revision it rolls to the highest number,
	// a rollback included.
	revs := c.ownedRevisions(ds.Namespace, ds.UID)
	if n := len(revs); n > 0 {
		cur := revs[n-1]
		r.Revision, r.Since, r.ChangeCause = cur.Revision, later(r.Since, cur.CreationTimestamp.Time), cur.Annotations[model.ChangeCauseAnnotation]
		if !done && n > 1 {
			if t, err := model.RevisionTemplate(revs[n-2]); err == nil {
				r.From = differentImages(containerImages(&t), r.Images)
			}
		}
	}
	r.Changed = c.moved(k, r.Since)
	if err != nil {
		done = true
		if st.UpdatedNumberScheduled < st.DesiredNumberScheduled {
			r.State, r.Why = FleetPaused, fmt.Sprintf("OnDelete: %d of %d pods updated; the others take the update when deleted", st.UpdatedNumberScheduled, st.DesiredNumberScheduled)
		}
	}
	whole := ds.Generation <= st.ObservedGeneration && st.UpdatedNumberScheduled >= st.DesiredNumberScheduled
	e := fleetEntry{}
	c.podWorkload(k, &r, &e, []types.UID{ds.UID}, statusLine(msg, err), done, whole)
	return e
}

// rcFleet is a ReplicationController's row. A rolling update is one row,
// under the old controller's name, rolling from its images to the next
// controller's; the next controller has no row of its own while the update
// runs.
func (c *Cluster) rcFleet(k fleetKey, rc *corev1.ReplicationController) (fleetEntry, bool) {
	r := FleetRow{Namespace: rc.Namespace, Kind: FleetReplicationController, Name: rc.Name, State: fleetUnset,
		Desired: model.RCReplicas(rc), Updated: rc.Status.Replicas, Available: rc.Status.AvailableReplicas,
		Since: rc.CreationTimestamp.Time, ChangeCause: rc.Annotations[model.ChangeCauseAnnotation]}
	if rc.Spec.Template != nil {
		r.Images = containerImages(rc.Spec.Template)
	}
	e := fleetEntry{}
	uids := []types.UID{rc.UID}
	partner := ""
	status := fmt.Sprintf("%d of %d pods available", r.Available, r.Desired)
	done := r.Available >= r.Desired
	if hasRCUpdate(rc) {
		var siblings []*corev1.ReplicationController
		for _, o := range c.fleetBook.rcs {
			if o.Namespace == rc.Namespace {
				siblings = append(siblings, o)
			}
		}
		s, updating := model.DescribeRCUpdate(siblings, rc.Name)
		if updating {
			byName := func(n string) *corev1.ReplicationController { return c.fleetBook.rcs[objectKey(rc.Namespace, n)] }
			old, next := byName(s.Old), byName(s.Next)
			if rc.Name != s.Old && old != nil {
				return fleetEntry{}, false // the old controller's row shows it
			}
			from, to := old, next
			if s.Rollback {
				from, to = next, old
			}
			r.Desired, r.Updated, r.Available = s.Desired, 0, 0
			for _, x := range []*corev1.ReplicationController{old, next} {
				if x != nil {
					r.Available += x.Status.AvailableReplicas
				}
			}
			if to != nil {
				r.Updated = to.Status.Replicas
				if to.Spec.Template != nil {
					r.Images = containerImages(to.Spec.Template)
				}
				r.Since = later(r.Since, to.CreationTimestamp.Time)
			}
			if from != nil && from.Spec.Template != nil && to != nil {
				r.From = differentImages(containerImages(from.Spec.Template), r.Images)
			}
			uids = uids[:0]
			for _, x := range []*corev1.ReplicationController{old, next} {
				if x != nil {
					uids = append(uids, x.UID)
					if x != rc {
						partner = x.Name
					}
				}
			}
			status = fmt.Sprintf("rolling update %s → %s (%s): %d of %d updated", s.Old, s.Next, s.Phase, r.Updated, r.Desired)
			done = false
		}
	}
	r.Changed = c.moved(k, r.Since)
	if partner != "" {
		// The next controller's figures are the update's progress.
		r.Changed = later(r.Changed, c.fleetBook.movedAt[fleetKey{FleetReplicationController, rc.Namespace, partner}])
	}
	c.podWorkload(k, &r, &e, uids, status, done, done)
	return e, true
}

func hasRCUpdate(rc *corev1.ReplicationController) bool {
	for _, a := range model.RCUpdateAnnotations {
		if _, ok := rc.Annotations[a]; ok {
			return true
		}
	}
	return false
}

// podRestarts is the most restarts of the pod's containers.
func podRestarts(p *corev1.Pod) int32 {
	var n int32
	for i := range p.Status.ContainerStatuses {
		n = max(n, p.Status.ContainerStatuses[i].RestartCount)
	}
	return n
}
