package argorollout

import (
	"context"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
	"rollscope/model/argo"
)

// Argo's condition reasons and messages (utils/conditions).
const (
	reasonAvailable      = "AvailableReason"
	msgAvailable         = "Rollout has minimum availability"
	msgNotAvailable      = "Rollout does not have minimum availability"
	reasonRSUpdated      = "ReplicaSetUpdated"
	msgRSProgressing     = "ReplicaSet %q is progressing."
	reasonNewRSCreated   = "NewReplicaSetCreated"
	msgNewRSCreated      = "Created new replica set %q"
	reasonNewRSAvailable = "NewReplicaSetAvailable"
	msgRSCompleted       = "ReplicaSet %q has successfully progressed."
	reasonCompleted      = "RolloutCompleted"
	reasonNotCompleted   = "RolloutNotCompleted"
	msgNotCompleted      = "Rollout not completed, started update to revision %d (%s)"
	reasonHealthy        = "RolloutHealthy"
	msgHealthy           = "Rollout is healthy"
	msgNotHealthy        = "Rollout is not healthy"
	reasonPaused         = "RolloutPaused"
	msgPaused            = "Rollout is paused"
	reasonResumed        = "RolloutResumed"
	msgResumed           = "Rollout is resumed"
	reasonAborted        = "RolloutAborted"
	msgAborted           = "Rollout aborted update to revision %d"
	reasonNotAvailableRS = "ReplicaSetNotAvailable"
)

func getCondition(st argo.RolloutStatus, t argo.RolloutConditionType) *argo.RolloutCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			return &st.Conditions[i]
		}
	}
	return nil
}

func (rc *rolloutContext) condition(t argo.RolloutConditionType, status corev1.ConditionStatus, reason, msg string) argo.RolloutCondition {
	return argo.RolloutCondition{Type: t, Status: status, LastUpdateTime: rc.now, LastTransitionTime: rc.now, Reason: reason, Message: msg}
}

// setCondition is Argo's SetRolloutCondition: nothing when the status and
// reason are the same, the transition time kept when the status is.
func setCondition(st *argo.RolloutStatus, c argo.RolloutCondition) bool {
	cur := getCondition(*st, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return false
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	removeCondition(st, c.Type)
	st.Conditions = append(st.Conditions, c)
	return true
}

func removeCondition(st *argo.RolloutStatus, t argo.RolloutConditionType) {
	var out []argo.RolloutCondition
	for _, c := range st.Conditions {
		if c.Type != t {
			out = append(out, c)
		}
	}
	st.Conditions = out
}

// checkPausedConditions is Argo's: Progressing Unknown (paused or resumed)
// and the Paused condition follow status.pauseConditions and spec.paused,
// written before the rest of the sync.
func (rc *rolloutContext) checkPausedConditions(ctx context.Context) (bool, error) {
	ro := rc.ro
	prog := getCondition(ro.Status, argo.RolloutProgressing)
	progPaused := prog != nil && prog.Reason == reasonPaused
	isPaused := len(ro.Status.PauseConditions) > 0 || ro.Spec.Paused
	abortCond := prog != nil && prog.Reason == reasonAborted
	var updated []argo.RolloutCondition
	completed := ro.Status.StableRS != "" && ro.Status.StableRS == ro.Status.CurrentPodHash
	if isPaused != progPaused && !abortCond && !completed {
		if isPaused {
			updated = append(updated, rc.condition(argo.RolloutProgressing, corev1.ConditionUnknown, reasonPaused, msgPaused))
		} else {
			updated = append(updated, rc.condition(argo.RolloutProgressing, corev1.ConditionUnknown, reasonResumed, msgResumed))
		}
	}
	if !ro.Status.Abort && abortCond {
		updated = append(updated, rc.condition(argo.RolloutProgressing, corev1.ConditionUnknown, reasonRetry, msgRetry))
	}
	pc := getCondition(ro.Status, argo.RolloutPaused)
	if pausedTrue := pc != nil && pc.Status == corev1.ConditionTrue; isPaused != pausedTrue && !abortCond {
		s := corev1.ConditionFalse
		if isPaused {
			s = corev1.ConditionTrue
		}
		updated = append(updated, rc.condition(argo.RolloutPaused, s, reasonPaused, msgPaused))
	}
	if len(updated) == 0 {
		return false, nil
	}
	ns := *ro.Status.DeepCopy()
	for _, c := range updated {
		setCondition(&ns, c)
	}
	return true, rc.patchStatus(ctx, &ns)
}

// calculateRolloutConditions is Argo's for the canary, without the
// progress deadline and replica failures.
func (rc *rolloutContext) calculateRolloutConditions(ns *argo.RolloutStatus) {
	ro := rc.ro
	isPaused := len(ns.PauseConditions) > 0 || ro.Spec.Paused
	isAborted := rc.aborted()
	var becameUnhealthy bool
	if !isPaused && rc.healthy(ns) {
		setCondition(ns, rc.condition(argo.RolloutHealthy, corev1.ConditionTrue, reasonHealthy, msgHealthy))
	} else if getCondition(ro.Status, argo.RolloutHealthy) != nil {
		becameUnhealthy = setCondition(ns, rc.condition(argo.RolloutHealthy, corev1.ConditionFalse, reasonHealthy, msgNotHealthy))
	}
	if isAborted {
		msg := fmt.Sprintf(msgAborted, revision(ro.Annotations))
		if rc.addAbort != "" {
			msg += ": " + rc.addAbort
		}
		if setCondition(ns, rc.condition(argo.RolloutProgressing, corev1.ConditionFalse, reasonAborted, msg)) {
			rc.c.env.Events.Eventf(ro, corev1.EventTypeWarning, reasonAborted, "%s", msg)
		}
	}
	cur := getCondition(ro.Status, argo.RolloutProgressing)
	if !isAborted {
		switch {
		case rc.healthy(ns):
			setCondition(ns, rc.condition(argo.RolloutProgressing, corev1.ConditionTrue, reasonNewRSAvailable, fmt.Sprintf(msgRSCompleted, rc.newRSName())))
		case rc.progressing(ns) || becameUnhealthy:
			reason, msg := reasonRSUpdated, fmt.Sprintf(msgRSProgressing, rc.newRSName())
			if ns.StableRS == ns.CurrentPodHash && becameUnhealthy {
				reason, msg = reasonNotAvailableRS, msgNotAvailable
			}
			c := rc.condition(argo.RolloutProgressing, corev1.ConditionTrue, reason, msg)
			if cur != nil {
				if cur.Status == corev1.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				removeCondition(ns, argo.RolloutProgressing)
			}
			setCondition(ns, c)
		case !rc.indefiniteStep() && !rc.waitingForScaleDown() && rc.timedOut(ns):
			msg := fmt.Sprintf(msgTimedOut, ro.Name)
			if rc.newRS != nil {
				msg = fmt.Sprintf(msgRSTimedOut, rc.newRS.Name)
			}
			// Argo records no event here: the condition alone says it
			// (with progressDeadlineAbort, RolloutAborted follows).
			setCondition(ns, rc.condition(argo.RolloutProgressing, corev1.ConditionFalse, reasonTimedOut, msg))
		}
	}
	if bg := ro.Spec.Strategy.BlueGreen; bg != nil && saturated(ro, rc.rsByHash(ns.BlueGreen.ActiveSelector)) ||
		bg == nil && model.AvailableReplicaCount(rc.allRSs) >= replicasOrDefault(ro) {
		setCondition(ns, rc.condition(argo.RolloutAvailable, corev1.ConditionTrue, reasonAvailable, msgAvailable))
	} else {
		setCondition(ns, rc.condition(argo.RolloutAvailable, corev1.ConditionFalse, reasonAvailable, msgNotAvailable))
	}
	if ns.StableRS != "" && ns.StableRS == ns.CurrentPodHash {
		setCondition(ns, rc.condition(argo.RolloutCompleted, corev1.ConditionTrue, reasonCompleted, reasonCompleted))
	} else if setCondition(ns, rc.condition(argo.RolloutCompleted, corev1.ConditionFalse, reasonCompleted, reasonCompleted)) {
		rc.c.env.Events.Eventf(ro, corev1.EventTypeNormal, reasonNotCompleted, msgNotCompleted, revision(ro.Annotations), ns.CurrentPodHash)
	}
}

func (rc *rolloutContext) newRSName() string {
	if rc.newRS == nil {
		return ""
	}
	return rc.newRS.Name
}

// healthy is Argo's RolloutHealthy for a canary.
func (rc *rolloutContext) healthy(ns *argo.RolloutStatus) bool {
	ro := rc.ro
	replicas := replicasOrDefault(ro)
	steps := len(canarySteps(ro))
	allSteps := true
	if steps > 0 && ns.CurrentStepIndex != nil {
		allSteps = int32(steps) == *ns.CurrentStepIndex
	}
	done := allSteps && ns.StableRS != "" && ns.StableRS == ns.CurrentPodHash && ns.Replicas == replicas
	if bg := ro.Spec.Strategy.BlueGreen; bg != nil {
		done = ns.BlueGreen.ActiveSelector == ns.CurrentPodHash &&
			(bg.PreviewService == "" || ns.BlueGreen.PreviewSelector == ns.CurrentPodHash)
	}
	return ns.UpdatedReplicas == replicas && ns.AvailableReplicas == replicas &&
		ro.Status.ObservedGeneration == strconv.FormatInt(ro.Generation, 10) && done
}

// progressing is Argo's RolloutProgressing for a canary.
func (rc *rolloutContext) progressing(ns *argo.RolloutStatus) bool {
	old := rc.ro.Status
	step := old.CurrentStepIndex != nil && ns.CurrentStepIndex != nil && *old.CurrentStepIndex != *ns.CurrentStepIndex
	strategy := ns.StableRS != old.StableRS || step || ns.CurrentStepHash != old.CurrentStepHash
	if rc.ro.Spec.Strategy.BlueGreen != nil {
		strategy = ns.BlueGreen.ActiveSelector != old.BlueGreen.ActiveSelector || ns.BlueGreen.PreviewSelector != old.BlueGreen.PreviewSelector
	}
	return ns.UpdatedReplicas != old.UpdatedReplicas ||
		ns.Replicas-ns.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		ns.ReadyReplicas > old.ReadyReplicas || ns.AvailableReplicas > old.AvailableReplicas || strategy
}

// Argo's words for a retry and for a progress deadline passed.
const (
	reasonRetry    = "RolloutRetry"
	msgRetry       = "Retrying Rollout after abort"
	reasonTimedOut = "ProgressDeadlineExceeded"
	msgRSTimedOut  = "ReplicaSet %q has timed out progressing."
	msgTimedOut    = "Rollout %q has timed out progressing."
)

// progressDeadline is spec.progressDeadlineSeconds, 600 when unset.
func progressDeadline(r *argo.Rollout) time.Duration {
	if r.Spec.ProgressDeadlineSeconds != nil {
		return time.Duration(*r.Spec.ProgressDeadlineSeconds) * time.Second
	}
	return 600 * time.Second
}

// timedOut is Argo's RolloutTimedOut: no progress recorded for the
// progress deadline (an aborted or paused Rollout never times out).
func (rc *rolloutContext) timedOut(st *argo.RolloutStatus) bool {
	c := getCondition(*st, argo.RolloutProgressing)
	if c == nil || c.Reason == reasonAborted || c.Reason == reasonPaused {
		return false
	}
	if c.Reason == reasonTimedOut {
		return true
	}
	return c.LastUpdateTime.Add(progressDeadline(rc.ro)).Before(rc.now.Time)
}

// indefiniteStep is Argo's isIndefiniteStep: a pause step (or the Paused
// condition) does not count against the deadline.
func (rc *rolloutContext) indefiniteStep() bool {
	if step, _ := argo.CurrentStep(rc.ro); step != nil && step.Pause != nil {
		return true
	}
	pc := getCondition(rc.ro.Status, argo.RolloutPaused)
	return pc != nil && pc.Status == corev1.ConditionTrue
}

// evaluateProgressDeadlineAbort is Argo's: with progressDeadlineAbort an
// update that has timed out is aborted.
func (rc *rolloutContext) evaluateProgressDeadlineAbort(ns *argo.RolloutStatus) {
	ro := rc.ro
	if !ro.Spec.ProgressDeadlineAbort || rc.aborted() {
		return
	}
	if ns.StableRS != "" && ns.StableRS == ns.CurrentPodHash || rc.progressing(ns) || rc.indefiniteStep() || rc.waitingForScaleDown() || !rc.timedOut(&ro.Status) {
		return
	}
	msg := fmt.Sprintf(msgTimedOut, ro.Name)
	if rc.newRS != nil {
		msg = fmt.Sprintf(msgRSTimedOut, rc.newRS.Name)
	}
	rc.addAbort = msg
	rc.c.env.Events.Eventf(ro, corev1.EventTypeWarning, reasonAborted, "%s", msg)
}

// requeueStuckRollout is Argo's: a Rollout making no progress is synced
// again when its deadline passes, a second late as Argo does.
func (rc *rolloutContext) requeueStuckRollout(ns *argo.RolloutStatus) {
	ro := rc.ro
	c := getCondition(ro.Status, argo.RolloutProgressing)
	if c == nil {
		return
	}
	paused := len(ro.Status.PauseConditions) > 0 || ro.Spec.Paused
	if rc.healthy(ns) || c.Reason == reasonTimedOut || paused || ro.Status.Abort || rc.indefiniteStep() {
		return
	}
	after := c.LastUpdateTime.Add(progressDeadline(ro)).Sub(rc.now.Time)
	if after < time.Second {
		rc.c.enqueueAfter(rc.key, 0)
		return
	}
	rc.c.enqueueAfter(rc.key, after+time.Second)
}
