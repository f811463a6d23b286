package model

import (
	"cmp"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model/argo"
)

// CanaryPod is a pod of the canary's ReplicaSet as the health gates read it.
type CanaryPod struct {
	Name       string
	Ready      bool
	ReadySince time.Time
	Restarts   int32
	// BackOff is a container's crash-loop or image-pull back-off reason.
	BackOff     string
	Terminating bool
	// LastExit is how a restarted container last ended ("Error, exit
	// code 1").
	LastExit string
}

// CanaryPodOf reads a pod for the gates.
func CanaryPodOf(p *corev1.Pod) CanaryPod {
	cp := CanaryPod{Name: p.Name, Terminating: p.DeletionTimestamp != nil}
	if c := PodCondition(&p.Status, corev1.PodReady); c != nil && c.Status == corev1.ConditionTrue {
		cp.Ready, cp.ReadySince = true, c.LastTransitionTime.Time
	}
	for _, statuses := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for _, cs := range statuses {
			cp.Restarts += cs.RestartCount
			if w := cs.State.Waiting; w != nil && crashLoopReasons[w.Reason] && cp.BackOff == "" {
				cp.BackOff = w.Reason
			}
			if t := cs.LastTerminationState.Terminated; t != nil && cp.LastExit == "" {
				cp.LastExit = fmt.Sprintf("%s, exit code %d", cmp.Or(t.Reason, "terminated"), t.ExitCode)
			}
		}
	}
	return cp
}

// CanaryWarning is a Warning event about a pod of the canary.
type CanaryWarning struct {
	Pod, Reason, Message string
	Count                int32
}

// CanaryWarningOf reads a Warning event about a pod; ok is false for any
// other event.
func CanaryWarningOf(e *corev1.Event) (CanaryWarning, bool) {
	if e.Type != corev1.EventTypeWarning || e.InvolvedObject.Kind != "Pod" {
		return CanaryWarning{}, false
	}
	return CanaryWarning{Pod: e.InvolvedObject.Name, Reason: e.Reason, Message: e.Message, Count: max(e.Count, 1)}, true
}

// CanaryGates is the health gates' verdict on a step.
type CanaryGates struct {
	// Healthy: the step's pods are all there and ready, and no gate has
	// failed; Since is when that became so.
	Healthy bool
	Since   time.Time
	// Ready of Want new pods are ready.
	Ready, Want int32
	// Failed is the failed gate with its evidence (pod, reason, count);
	// "" while none has.
	Failed string
}

// EvaluateCanaryGates judges a step of want pods begun at start: any
// restart, crash-loop or image-pull back-off, or Warning event on a new pod
// fails it at once; pods not ready fail it only once the step's progress
// deadline (the Deployment's own) has passed since it began.
func EvaluateCanaryGates(want int32, start time.Time, deadline time.Duration, hasDeadline bool,
	pods []CanaryPod, warnings []CanaryWarning, now time.Time) CanaryGates {
	g := CanaryGates{Want: want}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	ours := map[string]bool{}
	since := start
	// A back-off is the most telling evidence, then a restart.
	for _, p := range pods {
		if p.BackOff != "" {
			g.Failed = fmt.Sprintf("pod %s: %s (%s)", p.Name, p.BackOff, Plural(p.Restarts, "restart"))
			return g
		}
	}
	for _, p := range pods {
		ours[p.Name] = true
		if p.Restarts > 0 {
			g.Failed = fmt.Sprintf("pod %s restarted %s", p.Name, Plural(p.Restarts, "time"))
			if p.LastExit != "" {
				g.Failed += " (last exit: " + p.LastExit + ")"
			}
			return g
		}
		if p.Ready && !p.Terminating {
			g.Ready++
			if p.ReadySince.After(since) {
				since = p.ReadySince
			}
		}
	}
	sort.Slice(warnings, func(i, j int) bool { return warnings[i].Pod < warnings[j].Pod })
	for _, w := range warnings {
		if ours[w.Pod] {
			g.Failed = fmt.Sprintf("pod %s: Warning %s ×%d: %s", w.Pod, w.Reason, w.Count, w.Message)
			return g
		}
	}
	if g.Ready >= want {
		g.Healthy, g.Since = true, since
		return g
	}
	if hasDeadline && !now.Before(start.Add(deadline)) {
		g.Failed = fmt.Sprintf("progress deadline: %d of %d new pods ready after %s", g.Ready, want, deadline)
	}
	return g
}

// CanaryNext is what a held step calls for.
type CanaryNext int

const (
	// canaryWait: nothing to do yet; look again after the returned delay
	// (0: only when something changes).
	canaryWait CanaryNext = iota
	// CanaryAdvance: a timed hold has passed with its gates ok.
	CanaryAdvance
	// CanaryFail: a gate failed.
	CanaryFail
	// CanaryHoldInconclusive: the step's metric gates were inconclusive,
	// or their source is down; hold it for a human.
	CanaryHoldInconclusive
)

// DecideCanary is what c's current step calls for at now, given its gates.
func DecideCanary(c Canary, g CanaryGates, now time.Time) (CanaryNext, time.Duration) {
	if c.State.Phase != CanaryHolding {
		return canaryWait, 0
	}
	if g.Failed != "" {
		return CanaryFail, 0
	}
	switch c.GateVerdict() {
	case argo.AnalysisPhaseFailed:
		return CanaryFail, 0
	case argo.AnalysisPhaseInconclusive, argo.AnalysisPhaseError:
		return CanaryHoldInconclusive, 0
	}
	deadline, hasDeadline := c.Plan.Original.Deadline()
	if !g.Healthy {
		if hasDeadline {
			return canaryWait, max(c.State.Since.Add(deadline).Sub(now), time.Millisecond)
		}
		return canaryWait, 0
	}
	hold, timed := c.Plan.Step(c.State.Step).HoldFor()
	if !timed {
		return canaryWait, 0
	}
	if due := g.Since.Add(hold); now.Before(due) {
		return canaryWait, due.Sub(now)
	}
	if c.Gated() && c.GateVerdict() != argo.AnalysisPhaseSuccessful {
		// As an Argo step with analysis, the step ends once its analysis
		// has succeeded: its next measurement wakes it.
		return canaryWait, 0
	}
	return CanaryAdvance, 0
}
