package argo

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// The actions on a Rollout are those of Argo's kubectl plugin
// (pkg/kubectl-argo-rollouts/cmd at v1.10): for each, whether it can work
// in the Rollout's state, and the requests the plugin sends, byte for
// byte. The engine (engine/argo) reads the Rollout, asks these rules and
// sends what they say; refused states send nothing.

// Write is one request to a Rollout: a patch of its main resource or of
// a subresource ("status", "scale").
type Write struct {
	Subresource string
	Type        types.PatchType
	Body        []byte
	// Instead, on a status patch, is what the plugin sends to the main
	// resource when the API answers the status patch NotFound (a Rollout
	// CRD without the status subresource, Argo before v0.10): it replaces
	// this write and every one after it.
	Instead []byte
}

// ErrNoChange marks a refusal because the Rollout already is as asked
// (already paused, already at that revision's template).
var ErrNoChange = errors.New("nothing to change")

// The plugin's patches (cmd/promote, abort, retry, pause, restart).
const (
	unpause                              = `{"spec":{"paused":false}}`
	pause                                = `{"spec":{"paused":true}}`
	clearPauseConditions                 = `{"status":{"pauseConditions":null}}`
	clearPauseConditionsAndControllerFmt = `{"status":{"pauseConditions":null, "controllerPause":false, "currentStepIndex":%d}}`
	unpauseAndClearPauseConditions       = `{"spec":{"paused":false},"status":{"pauseConditions":null}}`
	promoteFull                          = `{"status":{"promoteFull":true}}`
	clearPauseConditionsWithStepFmt      = `{"status":{"pauseConditions":null, "currentStepIndex":%d}}`
	unpauseAndClearWithStepFmt           = `{"spec":{"paused":false},"status":{"pauseConditions":null, "currentStepIndex":%d}}`
	unpauseAndPromoteFull                = `{"spec":{"paused":false},"status":{"promoteFull":true}}`
	abort                                = `{"status":{"abort":true}}`
	retry                                = `{"status":{"abort":false}}`
	restartFmt                           = "{\n\t\"spec\": {\n\t\t\"restartAt\": \"%s\"\n\t}\n}"
	scaleFmt                             = `{"spec":{"replicas":%d}}`
)

func spec(body string) Write { return Write{Type: types.MergePatchType, Body: []byte(body)} }

func status(body, instead string) Write {
	return Write{Subresource: "status", Type: types.MergePatchType, Body: []byte(body), Instead: []byte(instead)}
}

// ref is how a sentence names the Rollout.
func ref(r *Rollout) string { return "rollout/" + r.Name }

// FullyPromoted reports whether the Rollout runs its desired template as
// stable: nothing is being rolled out (Argo's IsFullyPromoted).
func FullyPromoted(r *Rollout) bool { return r.Status.StableRS == r.Status.CurrentPodHash }

// nextStep is the canary step index a promote moves to: the current one
// plus one, no further than the number of steps; nil for a Rollout that is
// no canary with steps (Argo's GetCurrentCanaryStep, then the plugin's
// increment).
func nextStep(r *Rollout) (next int32, current int32, ok bool) {
	c := r.Spec.Strategy.Canary
	if c == nil || len(c.Steps) == 0 {
		return 0, 0, false
	}
	if r.Status.CurrentStepIndex != nil {
		current = *r.Status.CurrentStepIndex
	}
	next = current
	if next < int32(len(c.Steps)) {
		next++
	}
	return next, current, true
}

// inconclusive reports whether the canary's current step analysis came out
// inconclusive, which pauses the Rollout by the controller's hand.
func inconclusive(r *Rollout) bool {
	a := r.Status.Canary.CurrentStepAnalysisRunStatus
	return r.Spec.Strategy.Canary != nil && a != nil && a.Status == AnalysisPhaseInconclusive
}

// Promote is `kubectl argo rollouts promote NAME`: past the pause (or the
// step) the Rollout is at. The status patch goes first, then the spec's
// unpause. It is refused on an aborted Rollout, where it would only move
// the step index under the abort, and where the plugin would change
// nothing.
func Promote(r *Rollout) ([]Write, error) {
	if r.Status.Abort {
		return nil, fmt.Errorf("%s is aborted: a promote would only move its step index under the abort — retry it to go through the steps again, or promote it fully to go straight to the new template", ref(r))
	}
	var writes []Write
	pcs := len(r.Status.PauseConditions) > 0
	next, current, canary := nextStep(r)
	moves := pcs || r.Spec.Paused
	switch {
	case inconclusive(r) && pcs && r.Status.ControllerPause:
		if canary {
			writes = append(writes, status(fmt.Sprintf(clearPauseConditionsAndControllerFmt, next), unpauseAndClearPauseConditions))
		}
	case pcs:
		writes = append(writes, status(clearPauseConditions, unpauseAndClearPauseConditions))
	case canary:
		// Mid-step (an analysis, a setWeight waiting for its pods), the
		// plugin moves to the next step; past the last one this patch
		// changes nothing.
		writes = append(writes, status(fmt.Sprintf(clearPauseConditionsWithStepFmt, next), fmt.Sprintf(unpauseAndClearWithStepFmt, next)))
		moves = moves || next != current
	}
	if r.Spec.Paused {
		writes = append(writes, spec(unpause))
	}
	if !moves || len(writes) == 0 {
		why := "it is not paused"
		if canary {
			why = "every step is done"
		}
		if FullyPromoted(r) {
			why = "it is fully promoted"
		}
		return nil, fmt.Errorf("%s has nothing to promote: %s: %w", ref(r), why, ErrNoChange)
	}
	return writes, nil
}

// PromoteFull is `kubectl argo rollouts promote NAME --full`: straight to
// the new template, skipping the remaining steps, pauses and analysis — on
// an aborted Rollout too, whose abort the controller then clears. It is
// refused once the Rollout is fully promoted or already being.
func PromoteFull(r *Rollout) ([]Write, error) {
	switch {
	case FullyPromoted(r) && r.Spec.Paused:
		return nil, fmt.Errorf("%s is already fully promoted; it is paused by hand — resume it instead: %w", ref(r), ErrNoChange)
	case FullyPromoted(r):
		return nil, fmt.Errorf("%s is already fully promoted: %w", ref(r), ErrNoChange)
	case r.Status.PromoteFull:
		return nil, fmt.Errorf("%s is already being promoted fully: Argo's controller is carrying it out: %w", ref(r), ErrNoChange)
	}
	writes := []Write{status(promoteFull, unpauseAndPromoteFull)}
	if r.Spec.Paused {
		writes = append(writes, spec(unpause))
	}
	return writes, nil
}

// Abort is `kubectl argo rollouts abort NAME`: back to the stable
// ReplicaSet, the template left as it is. Refused when aborted already or
// when nothing is being rolled out.
func Abort(r *Rollout) ([]Write, error) {
	switch {
	case r.Status.Abort:
		return nil, fmt.Errorf("%s is already aborted: %w", ref(r), ErrNoChange)
	case FullyPromoted(r):
		return nil, fmt.Errorf("%s has nothing to abort: it is fully promoted, no update is under way: %w", ref(r), ErrNoChange)
	}
	return []Write{status(abort, abort)}, nil
}

// Retry is `kubectl argo rollouts retry rollout NAME`: an aborted Rollout
// goes through its steps again. Only an aborted Rollout can be retried.
func Retry(r *Rollout) ([]Write, error) {
	if !r.Status.Abort {
		return nil, fmt.Errorf("%s is not aborted: there is nothing to retry: %w", ref(r), ErrNoChange)
	}
	return []Write{status(retry, retry)}, nil
}

// Pause is `kubectl argo rollouts pause NAME`: spec.paused, which holds
// the Rollout where it is until resumed or promoted.
func Pause(r *Rollout) ([]Write, error) {
	if r.Spec.Paused {
		return nil, fmt.Errorf("%s is already paused: %w", ref(r), ErrNoChange)
	}
	return []Write{spec(pause)}, nil
}

// Resume clears spec.paused and nothing else: the plugin's unpause patch
// without promote's step change (the plugin has no resume of its own). A
// Rollout paused by its steps or its analysis, not by hand, is promoted
// instead.
func Resume(r *Rollout) ([]Write, error) {
	if !r.Spec.Paused {
		if len(r.Status.PauseConditions) > 0 {
			return nil, fmt.Errorf("%s is not paused by hand: it waits at a pause of its own (%s) — promote it to move on: %w", ref(r), r.Status.PauseConditions[0].Reason, ErrNoChange)
		}
		return nil, fmt.Errorf("%s is not paused: %w", ref(r), ErrNoChange)
	}
	return []Write{spec(unpause)}, nil
}

// Restart is `kubectl argo rollouts restart NAME`: spec.restartAt at now,
// after which Argo's controller replaces the pods, no new revision made.
func Restart(now time.Time) []Write {
	return []Write{spec(fmt.Sprintf(restartFmt, now.UTC().Format(time.RFC3339)))}
}

// Scale is `kubectl scale rollout NAME --replicas=N`: a merge patch of
// the scale subresource (the plugin has no scale of its own).
func Scale(replicas int32) ([]Write, error) {
	if replicas < 0 {
		return nil, fmt.Errorf("replicas are 0 or more, not %d", replicas)
	}
	return []Write{{Subresource: "scale", Type: types.MergePatchType, Body: fmt.Appendf(nil, scaleFmt, replicas)}}, nil
}
