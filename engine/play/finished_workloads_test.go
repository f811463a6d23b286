package play

import (
	"testing"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

// A blue/green Rollout at its BlueGreenPause holds for the operator (the
// pause begins only once the preview ReplicaSet is all available, while
// its status counts the active one alone), unless auto-promotion ends the
// pause after autoPromotionSeconds; a canary at an indefinite pause holds
// once its pods are all available.
func TestRolloutHeldAtBlueGreensPause(t *testing.T) {
	rollout := func(bg *argo.BlueGreenStrategy, replicas, available int32) kind.Workload {
		r := &argo.Rollout{Spec: argo.RolloutSpec{Strategy: argo.RolloutStrategy{BlueGreen: bg}}}
		r.Generation = 2
		r.Status = argo.RolloutStatus{ObservedGeneration: "2", Replicas: replicas, AvailableReplicas: available,
			PauseConditions: []argo.PauseCondition{{Reason: argo.PauseReasonBlueGreenPause}}, ControllerPause: true}
		if bg == nil {
			r.Spec.Strategy.Canary = &argo.CanaryStrategy{Steps: []argo.CanaryStep{{Pause: &argo.RolloutPause{}}}}
			r.Status.PauseConditions[0].Reason = argo.PauseReasonCanaryPauseStep
			r.Status.CurrentStepIndex = new(int32)
		}
		w, ok := kind.Of(r)
		if !ok {
			t.Fatal("a Rollout is not a workload")
		}
		return w
	}
	no := false
	for name, tc := range map[string]struct {
		w    kind.Workload
		want bool
	}{
		"blue/green without auto-promotion, 6 pods of which the active 3 counted": {rollout(&argo.BlueGreenStrategy{AutoPromotionEnabled: &no}, 6, 3), true},
		"blue/green promoting itself after 30s":                                   {rollout(&argo.BlueGreenStrategy{AutoPromotionSeconds: 30}, 6, 3), false},
		"canary at a pause, all available":                                        {rollout(nil, 4, 4), true},
		"canary at a pause, a pod not yet available":                              {rollout(nil, 4, 3), false},
	} {
		if got := rolloutHeld(tc.w); got != tc.want {
			t.Errorf("%s: held %v, want %v", name, got, tc.want)
		}
	}
}

// An abort says Degraded at once, while the canary's pods are still up and
// the stable ReplicaSet is below its size: a run goes on until the
// controller has scaled them back, as `kubectl argo rollouts status`
// watchers see it, and holds at once only where the preview is kept.
func TestAnAbortedRolloutHoldsOnceRolledBack(t *testing.T) {
	aborted := func(bg *argo.BlueGreenStrategy, updated int32) kind.Workload {
		r := &argo.Rollout{Spec: argo.RolloutSpec{Strategy: argo.RolloutStrategy{BlueGreen: bg}}}
		if bg == nil {
			r.Spec.Strategy.Canary = &argo.CanaryStrategy{Steps: []argo.CanaryStep{{SetWeight: new(int32)}}}
		}
		r.Generation = 2
		r.Status = argo.RolloutStatus{ObservedGeneration: "2", Replicas: 10, AvailableReplicas: 10, UpdatedReplicas: updated,
			Abort: true, Phase: argo.RolloutPhaseDegraded, Message: "RolloutAborted: Rollout aborted update to revision 2"}
		w, ok := kind.Of(r)
		if !ok {
			t.Fatal("a Rollout is not a workload")
		}
		return w
	}
	zero := int32(0)
	for name, tc := range map[string]struct {
		w    kind.Workload
		want bool
	}{
		"canary aborted, its 2 pods not yet scaled down":   {aborted(nil, 2), false},
		"canary aborted and rolled back":                   {aborted(nil, 0), true},
		"blue/green aborted, preview down after its delay": {aborted(&argo.BlueGreenStrategy{}, 3), false},
		"blue/green aborted, preview kept for good":        {aborted(&argo.BlueGreenStrategy{AbortScaleDownDelaySeconds: &zero}, 3), true},
	} {
		if got := rolloutHeld(tc.w); got != tc.want {
			t.Errorf("%s: held %v, want %v", name, got, tc.want)
		}
	}
}
