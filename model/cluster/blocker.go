package cluster

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// blockerInput is what the blocker line is derived from: the objects as the
// API serves them.
type blockerInput struct {
	Deployment  *appsv1.Deployment
	ReplicaSets []*appsv1.ReplicaSet // the deployment's, new and old
	// Pods are the pods of those ReplicaSets.
	Pods []*corev1.Pod
	// Nodes are read for drains a PodDisruptionBudget holds back.
	Nodes []*corev1.Node
	// EventsOf are the events about one pod of the rollout, by name; nil
	// when there are none to read.
	EventsOf func(pod string) []*corev1.Event
	Now      time.Time
}

// blockerFor names the one thing that currently holds the rollout back, in the
// operator's words with the evidence, or says what is happening when
// nothing does. It is "" for a finished rollout with nothing in its way.
//
// The order is the operator's: a rollout that has failed or is paused goes
// nowhere whatever its pods do; then what no amount of waiting fixes (an
// image that cannot be pulled, a crash loop, pods that fit nowhere); then
// what time will fix (old pods terminating under Recreate, minReadySeconds,
// readiness).
func blockerFor(in blockerInput) string {
	scan := func(s *podScan) {
		for _, p := range in.Pods {
			f := factsOf(p)
			s.add(&f)
		}
	}
	return blocker(rolloutParts{d: in.Deployment, rss: in.ReplicaSets, nodes: in.Nodes, eventsOf: in.EventsOf, now: in.Now}, scan, podOf(in.Pods))
}

// rolloutParts is blockerInput without its pods, which the console keeps
// as podFacts.
type rolloutParts struct {
	d        *appsv1.Deployment
	rss      []*appsv1.ReplicaSet
	nodes    []*corev1.Node
	eventsOf func(pod string) []*corev1.Event
	now      time.Time
	// newRS is d's new ReplicaSet when the caller found it already
	// (newKnown), sparing the template comparisons.
	newRS    *appsv1.ReplicaSet
	newKnown bool
}

// blocker is Blocker over pods that scan hands to a podScan; isOurs says
// whether a pod name is one of the rollout's.
func blocker(in rolloutParts, scan func(*podScan), isOurs func(string) bool) string {
	line, _ := diagnose(in, scan, isOurs)
	return line
}

// hold is what kind of thing a blocker line names, for the fleet: what no
// waiting fixes needs a human now, what time fixes only once it stops
// moving.
type hold int

const (
	holdNone   hold = iota // nothing: finished, or the progress sentence
	holdFailed             // the progress deadline was exceeded
	holdPaused             // spec.paused
	holdStuck              // an image that cannot be pulled, a drain a budget holds
	holdCrash              // new pods crash-loop
	holdWaits              // what time fixes: Recreate's old pods terminating, minReadySeconds, readiness
	// holdUnplaced: new pods fit on no node. The scheduler finds room as
	// soon as a node registers or frees up (a cluster starting, an
	// autoscaler), so it is stuck by the rule for a rollout that waits: once
	// it has not moved for fleetStuckAfter, not at the first
	// FailedScheduling.
	holdUnplaced
)

// diagnose is blocker's line with the kind of hold it names.
func diagnose(in rolloutParts, scan func(*podScan), isOurs func(string) bool) (string, hold) {
	d := in.d
	if d == nil {
		return "", holdNone
	}
	if p := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); p != nil &&
		p.Status == corev1.ConditionFalse && p.Reason == model.ReasonProgressDeadlineExceeded {
		// The deadline ends the rollout, not what held it: the operator
		// deciding between undo and abort still needs the cause.
		cause, kind := diagnoseCause(in, scan, isOurs)
		if kind == holdNone {
			// Nothing found holding it: how far it got, which no longer
			// rolls out.
			cause = strings.TrimPrefix(cause, rollingOut)
		}
		return failedLine(d, cause), holdFailed
	}
	return diagnoseCause(in, scan, isOurs)
}

// failedLine is a rollout past its progress deadline: what held it, then
// the deadline.
func failedLine(d *appsv1.Deployment, cause string) string {
	line := fmt.Sprintf("progress deadline exceeded after %ds, the rollout has failed: undo (u) or abort (x)", deref(d.Spec.ProgressDeadlineSeconds))
	if cause == "" {
		return line
	}
	return cause + " · " + line
}

// diagnoseCause is what holds d's rollout back, the deadline aside.
func diagnoseCause(in rolloutParts, scan func(*podScan), isOurs func(string) bool) (string, hold) {
	d := in.d
	if d.Spec.Paused {
		return pausedLine(d), holdPaused
	}
	newRS := in.newRS
	if !in.newKnown {
		newRS = model.FindNewReplicaSet(d, in.rss)
	}
	_, done := rolloutStatus(d)
	if done || d.Status.ObservedGeneration < d.Generation {
		// Finished (or not yet looked at by the controller, which the
		// status sentence says): only a drain can be held back.
		return drainHold(drainBlocker(in.nodes, d.Namespace, isOurs))
	}
	s := newScan(newRS, d.Spec.MinReadySeconds, in.now)
	scan(&s)
	switch {
	case s.pullBad > 0:
		return fmt.Sprintf("new image cannot be pulled — %s: %s (%s)", s.pullImage, s.pullReason, model.Plural(s.pullBad, "pod")), holdStuck
	case s.crash != nil:
		return crashLine(s.crash), holdCrash
	case s.unschedulable != nil:
		return "new pods cannot be scheduled — " + unschedulableWhy(s.unschedulable, in.eventsOf), holdUnplaced
	}
	// Only Recreate waits for old pods to be gone. A rolling update never
	// does: its surge counts the ReplicaSets' spec.replicas and its
	// availability active pods, neither of which a terminating pod is in, so
	// with the surge budget full it waits for new pods to become available
	// (below), however long the old ones take to stop.
	if s.terminating > 0 && d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return fmt.Sprintf("Recreate — waiting for old pods to terminate (%d terminating, grace %ds)", s.terminating, s.grace), holdWaits
	}
	if s.readyNotAvailable > 0 && s.notReady == nil {
		return fmt.Sprintf("minReadySeconds: %s ready, available in %s", model.Plural(s.readyNotAvailable, "new pod"), ceilSeconds(s.availableIn)), holdWaits
	}
	desired, available := model.DesiredReplicas(d), int32(0)
	if newRS != nil {
		available = newRS.Status.AvailableReplicas
	}
	if s.notReady != nil && available < desired {
		return notReadyLine(available, desired, s.notReady, in.now.Sub(s.notReadyAt), in.eventsOf), holdWaits
	}
	// Nothing holds the rollout itself: a drain its budget holds back may.
	if line := drainBlocker(in.nodes, d.Namespace, isOurs); line != "" {
		return line, holdStuck
	}
	return progressLine(d, newRS, in.rss), holdNone
}

func drainHold(line string) (string, hold) {
	if line == "" {
		return "", holdNone
	}
	return line, holdStuck
}

// podFacts is what the blocker needs of one pod, read once when the pod
// arrives (the console keeps it beside the pod), so that deriving the
// blocker of a rollout of thousands of pods touches only these.
type podFacts struct {
	pod         *corev1.Pod
	owner       types.UID // the controlling ReplicaSet's
	terminating bool
	grace       int64
	active      bool
	// pullReason is ErrImagePull or ImagePullBackOff, pullImage its image.
	pullReason, pullImage string
	// restarts is set for a container that has crashed and restarts.
	restarts      int32
	unschedulable bool
	bound         bool
	ready         bool
	// looping is set while a container is crash-looping: in
	// CrashLoopBackOff, or restarted and not running ready again. A
	// container that restarted once long ago and runs is not.
	looping bool
	since   time.Time // when it last became ready, or not ready
}

func factsOf(p *corev1.Pod) podFacts {
	f := podFacts{pod: p, terminating: p.DeletionTimestamp != nil, active: model.IsPodActive(p), bound: p.Spec.NodeName != ""}
	if ref := controllerOf(p); ref != nil {
		f.owner = ref.UID
	}
	if g := p.DeletionGracePeriodSeconds; g != nil {
		f.grace = *g
	}
	for i := range p.Status.ContainerStatuses {
		cs := &p.Status.ContainerStatuses[i]
		if w := cs.State.Waiting; w != nil && (w.Reason == "ErrImagePull" || w.Reason == "ImagePullBackOff") {
			if f.pullReason == "" || w.Reason == "ImagePullBackOff" {
				f.pullReason, f.pullImage = w.Reason, cs.Image
			}
		}
		crashed := cs.LastTerminationState.Terminated != nil || cs.State.Terminated != nil
		looping := cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff"
		// In CrashLoopBackOff, or crashed and restarted more than once.
		if looping || crashed && cs.RestartCount >= 2 {
			f.restarts = max(f.restarts, cs.RestartCount, 1)
		}
		if looping || cs.RestartCount > 0 && (cs.State.Running == nil || !cs.Ready) {
			f.looping = true
		}
	}
	f.since = p.CreationTimestamp.Time
	for i := range p.Status.Conditions {
		c := &p.Status.Conditions[i]
		switch c.Type {
		case corev1.PodScheduled:
			f.unschedulable = c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable
		case corev1.PodReady:
			f.ready = c.Status == corev1.ConditionTrue
			if !c.LastTransitionTime.IsZero() {
				f.since = c.LastTransitionTime.Time
			}
		}
	}
	return f
}

// podScan is what one pass over the rollout's pods found.
type podScan struct {
	newRS    types.UID
	minReady time.Duration
	now      time.Time

	pullBad               int
	pullImage, pullReason string
	pullPod               string      // the pod they are read from
	crash                 *corev1.Pod // the new pod that restarted most
	crashRestarts         int32
	unschedulable         *corev1.Pod
	notReady              *corev1.Pod // the new pod not ready the longest
	notReadyAt            time.Time
	readyNotAvailable     int
	availableIn           time.Duration // until the first of those is available
	terminating           int
	grace                 int64 // the longest grace period of the terminating pods
}

func newScan(newRS *appsv1.ReplicaSet, minReady int32, now time.Time) podScan {
	s := podScan{minReady: time.Duration(minReady) * time.Second, now: now}
	if newRS != nil {
		s.newRS = newRS.UID
	}
	return s
}

// add looks at one pod, without allocating. Pods come in no particular
// order: ties go to the first name, so the line does not flicker between
// refreshes.
func (s *podScan) add(f *podFacts) {
	if f.terminating {
		s.terminating++
		s.grace = max(s.grace, f.grace)
		return
	}
	if s.newRS == "" || f.owner != s.newRS || !f.active {
		return
	}
	switch {
	case f.pullReason != "":
		if s.pullBad == 0 || pullFirst(f.pullReason, f.pod.Name, s.pullReason, s.pullPod) {
			s.pullImage, s.pullReason, s.pullPod = f.pullImage, f.pullReason, f.pod.Name
		}
		s.pullBad++
	case f.restarts > 0 && s.crashFirst(f):
		s.crash, s.crashRestarts = f.pod, f.restarts
	}
	switch {
	case f.unschedulable:
		if s.unschedulable == nil || f.pod.Name < s.unschedulable.Name {
			s.unschedulable = f.pod
		}
	case !f.bound:
	case !f.ready:
		if s.notReadyFirst(f) {
			s.notReady, s.notReadyAt = f.pod, f.since
		}
	case s.minReady > 0:
		// Available once ready for longer than minReadySeconds
		// (IsPodAvailable).
		if left := f.since.Add(s.minReady).Sub(s.now); left >= 0 {
			if s.readyNotAvailable == 0 || left < s.availableIn {
				s.availableIn = left
			}
			s.readyNotAvailable++
		}
	}
}

// crashFirst reports whether the crashed pod f is named before the one
// found so far: the one that restarted most, then by name.
func (s *podScan) crashFirst(f *podFacts) bool {
	return s.crash == nil || f.restarts > s.crashRestarts || f.restarts == s.crashRestarts && f.pod.Name < s.crash.Name
}

// notReadyFirst reports whether the pod f, not ready, is named before the
// one found so far: the one not ready the longest, then by name.
func (s *podScan) notReadyFirst(f *podFacts) bool {
	return s.notReady == nil || f.since.Before(s.notReadyAt) || f.since.Equal(s.notReadyAt) && f.pod.Name < s.notReady.Name
}

func pausedLine(d *appsv1.Deployment) string {
	// The deployment controller marks a paused rollout Progressing=Unknown
	// DeploymentPaused when it sees the pause.
	if p := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); p != nil &&
		p.Reason == model.ReasonDeploymentPaused && !p.LastTransitionTime.IsZero() {
		return "paused since " + p.LastTransitionTime.Format("15:04:05") + " — resume with r, or undo with u"
	}
	return "paused — resume with r, or undo with u"
}

func crashLine(p *corev1.Pod) string {
	var worst *corev1.ContainerStatus
	for i := range p.Status.ContainerStatuses {
		if cs := &p.Status.ContainerStatuses[i]; worst == nil || cs.RestartCount > worst.RestartCount {
			worst = cs
		}
	}
	line := fmt.Sprintf("new pods crash-loop — %s restarted %s", p.Name, model.Plural(worst.RestartCount, "time"))
	t := worst.LastTerminationState.Terminated
	if t == nil {
		t = worst.State.Terminated
	}
	if t != nil {
		line += fmt.Sprintf(", last exit %d", t.ExitCode)
		if t.Reason != "" {
			line += " (" + t.Reason + ")"
		}
	}
	return line
}

// unschedulableWhy is the scheduler's own words: the pod's PodScheduled
// condition, else its last FailedScheduling event, in their first sentence
// ("0/6 nodes are available: 6 Insufficient cpu").
func unschedulableWhy(p *corev1.Pod, eventsOf func(string) []*corev1.Event) string {
	msg := ""
	if c := model.PodCondition(&p.Status, corev1.PodScheduled); c != nil {
		msg = c.Message
	}
	if msg == "" {
		if e := lastEvent(p.Name, eventsOf, "FailedScheduling"); e != nil {
			msg = e.Message
		}
	}
	if msg == "" {
		return p.Name + " is waiting for the scheduler"
	}
	return firstSentence(msg)
}

// notReadyLine is a rollout waiting on new pods that are not ready, with
// how many of the replicas it wants are available on the new revision so
// far (a count of pods still to come would read as pods that exist: mid-way
// through a 30,000-replica rollout most are not created yet), naming the
// one not ready the longest with what is known of why: the kubelet's word,
// or — for a pod whose containers run and nothing has been said about —
// that no probe failure is recorded, rather than nothing.
func notReadyLine(available, desired int32, p *corev1.Pod, age time.Duration, eventsOf func(string) []*corev1.Event) string {
	line := fmt.Sprintf("waiting for new pods to become available, %d of %d so far — %s", available, desired, p.Name)
	why := readinessWhy(p, eventsOf)
	if why == "" && running(p) {
		return line + fmt.Sprintf(" running but not ready for %s: no readiness probe failure recorded", kubectlAge(age))
	}
	line += " not ready for " + kubectlAge(age)
	if why != "" {
		line += ": " + why
	}
	return line
}

// running reports whether every container of p has started and runs.
func running(p *corev1.Pod) bool {
	if p.Status.Phase != corev1.PodRunning || len(p.Status.ContainerStatuses) == 0 {
		return false
	}
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Running == nil {
			return false
		}
	}
	return true
}

// readinessWhy is the kubelet's last word on a pod that is not ready: its
// last Unhealthy event ("readiness probe failed"), or a container still
// waiting to start.
func readinessWhy(p *corev1.Pod, eventsOf func(string) []*corev1.Event) string {
	if e := lastEvent(p.Name, eventsOf, "Unhealthy"); e != nil {
		msg := firstSentence(e.Message)
		if strings.HasPrefix(msg, "Readiness probe failed") {
			return "readiness probe failed"
		}
		return msg
	}
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Reason != "" {
			return w.Reason
		}
	}
	// Containers ready, the pod not: a readiness gate another controller
	// owns (a load balancer's target health, say) is not True, in the
	// kubelet's words on the Ready condition.
	if c := model.PodCondition(&p.Status, corev1.PodReady); c != nil && c.Reason == "ReadinessGatesNotReady" && c.Message != "" {
		return strings.TrimSuffix(c.Message, ".")
	}
	return ""
}

func lastEvent(pod string, eventsOf func(string) []*corev1.Event, reason string) *corev1.Event {
	if eventsOf == nil {
		return nil
	}
	var last *corev1.Event
	for _, e := range eventsOf(pod) {
		if e.Reason == reason && (last == nil || eventTime(e).After(eventTime(last))) {
			last = e
		}
	}
	return last
}

func eventTime(e *corev1.Event) time.Time {
	if !e.LastTimestamp.IsZero() {
		return e.LastTimestamp.Time
	}
	if !e.EventTime.IsZero() {
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

// firstSentence cuts the scheduler's "... Insufficient cpu. preemption: ..."
// to what it found.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, ".")
}

// rollingOut begins progressLine.
const rollingOut = "rolling out: "

// progressLine says what is happening when nothing blocks.
func progressLine(d *appsv1.Deployment, newRS *appsv1.ReplicaSet, rss []*appsv1.ReplicaSet) string {
	want := model.DesiredReplicas(d)
	var updated, available int32
	if newRS != nil {
		updated, available = newRS.Status.Replicas, newRS.Status.AvailableReplicas
	}
	old := model.ActualReplicaCount(rss) - updated
	switch {
	case updated < want:
		return fmt.Sprintf(rollingOut+"%d of %d new pods created, %s still running", updated, want, model.Plural(old, "old pod"))
	case old > 0:
		return fmt.Sprintf(rollingOut+"%d of %d new pods available, waiting for %s to scale down", available, want, model.Plural(old, "old pod"))
	}
	return fmt.Sprintf(rollingOut+"%d of %d new pods available", available, want)
}

// podOf reports whether a pod of the rollout has the name.
func podOf(pods []*corev1.Pod) func(string) bool {
	return func(name string) bool {
		for _, p := range pods {
			if p.Name == name {
				return true
			}
		}
		return false
	}
}

// kubectlAge writes a duration as kubectl describes ages: "3m12s",
// "45s", "2h5m".
func kubectlAge(d time.Duration) string {
	d = d.Truncate(time.Second)
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
}

// ceilSeconds is a wait rounded up to the second: "available in 4s" must
// not be said a second early.
func ceilSeconds(d time.Duration) string {
	secs := int64((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%ds", max(secs, 0))
}

// drainBlocker is the line for a drain that a budget holds back from one of
// the rollout's pods (namespace, and pod names in isOurs), or "".
func drainBlocker(nodes []*corev1.Node, namespace string, isOurs func(name string) bool) string {
	for _, n := range nodes {
		if n.Annotations[model.DrainStateAnnotation] != model.DrainBlocked {
			continue
		}
		for _, entry := range strings.Split(n.Annotations[model.DrainBlockedAnnotation], "; ") {
			h, ok := model.ParseBudgetHold(entry)
			if !ok {
				continue
			}
			ns, pod, _ := strings.Cut(h.Pod, "/")
			if ns != namespace || !isOurs(pod) {
				continue
			}
			return fmt.Sprintf("drain of %s blocked by PodDisruptionBudget %s (%s allowed)", n.Name, h.Name, model.Plural(h.Allowed, "disruption"))
		}
	}
	return ""
}
