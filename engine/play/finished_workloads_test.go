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
