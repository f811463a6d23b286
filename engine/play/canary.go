package play

import (
	appsv1 "k8s.io/api/apps/v1"

	"rollscope/engine/scenario"
	"rollscope/model"
	"rollscope/model/action"
)

// canaryRequest is a scripted canary or promote as the console's keys send
// it: a promote from whichever step the canary is at.
func canaryRequest(r action.Request, a scenario.Action) action.Request {
	if a.Kind == scenario.ActionPromote {
		r.Action = action.Promote
		if a.Full {
			r.Action = action.PromoteAll
		}
		return r
	}
	r.Action, r.Container, r.Image = action.Canary, a.Container, a.Image
	for name, value := range a.Env { // exactly one, checked by the parser
		r.Env = name + "=" + value
		if value == "" {
			r.Env = name + "-"
		}
	}
	r.Canary = action.CanarySettings{Steps: a.Canary.Steps, Holds: a.Canary.Holds, OnFailure: a.Canary.OnFailure, Templates: a.Canary.Analysis}
	return r
}

// canaryHeld reports whether d is a canary that holds for the operator
// with its pods settled — held at a pause, or failed and held — which
// ends a run as a paused rollout does. ok is false when d runs no canary
// that holds: the rest of deploymentSettled decides.
func canaryHeld(d *appsv1.Deployment, owned []*appsv1.ReplicaSet) (settled, ok bool) {
	c, found, err := model.ReadCanary(d)
	if err != nil || !found || !model.CanaryCurrent(d, c) {
		return false, false
	}
	if c.State.Phase == model.CanaryRolling {
		// Not over until the canary controller has seen the rollout
		// complete and cleared the canary.
		return false, true
	}
	if c.State.Phase == model.CanaryHolding {
		if _, timed := c.Plan.Step(c.State.Step).HoldFor(); timed || c.Measuring() {
			return false, true
		}
	}
	for _, rs := range owned {
		spec := model.SpecReplicas(rs)
		if rs.Status.Replicas != spec {
			return false, true
		}
	}
	if c.State.Phase == model.CanaryFailed || c.State.Phase == model.CanaryInconclusive {
		return true, true
	}
	newRS := model.FindNewReplicaSet(d, owned)
	return newRS != nil && newRS.Status.ReadyReplicas == model.SpecReplicas(newRS) && model.SpecReplicas(newRS) == c.Plan.Step(c.State.Step).Pods, true
}
