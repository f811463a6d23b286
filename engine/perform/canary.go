package perform

import (
	"context"
	"fmt"

	"rollscope/engine/actions"
	"rollscope/engine/canary"
	"rollscope/model"
	"rollscope/model/action"
)

// canary is the guided canary's requests: start one (engine/canary.Start,
// then its controller drives it wherever rollscope runs it) or promote it.
func (c *Cluster) canary(r action.Request) op {
	cl, t, now := c.cfg.Client, actions.Target{Namespace: r.Namespace, Name: r.Name}, c.cfg.Now
	switch r.Action {
	case action.Canary:
		ask := CanaryAsk(r)
		ask.ChangeCause = c.changeCause(action.Request{Name: r.Name, Container: r.Container, Image: r.Image})
		if r.Image == "" {
			ask.ChangeCause = ""
		}
		return op{check: func() error { return checkCanary(r) }, send: func(ctx context.Context) (string, error) {
			var err error
			if ask.Gates, ask.GateTemplates, err = canaryGates(ctx, cl, r.Namespace, r.Canary); err != nil {
				return "", err
			}
			cn, err := canary.Start(ctx, cl, t, ask, now())
			if err != nil {
				return "", err
			}
			first := cn.Plan.Step(1)
			gated := ""
			if n := len(cn.Plan.Gates); n > 0 {
				gated = ", gated by " + model.Plural(n, "metric")
			}
			return fmt.Sprintf("started at step 1 of %d, %d of %d pods%s", cn.Plan.Last(), first.Pods, cn.Plan.Replicas, gated), nil
		}}
	default:
		full := r.Action == action.PromoteAll
		return op{send: func(ctx context.Context) (string, error) {
			st, err := canary.Promote(ctx, cl, t, r.Canary.FromStep, full, now())
			if err != nil {
				return "", err
			}
			if st.Phase == model.CanaryRolling {
				return "promoted to 100%: the deployment's own strategy finishes the rollout", nil
			}
			return fmt.Sprintf("promoted to step %d", st.Step), nil
		}}
	}
}

// CanaryAsk is a canary request as engine/canary takes it.
func CanaryAsk(r action.Request) canary.Ask {
	return canary.Ask{Container: r.Container, Image: r.Image, Env: r.Env,
		Steps: r.Canary.Steps, Holds: r.Canary.Holds, OnFailure: r.Canary.OnFailure}
}

// checkCanary refuses a canary's input before anything is sent: the
// change, as set image or set env checks it, and what to do on a failed
// gate. Steps are checked against the deployment's replicas when it is read.
func checkCanary(r action.Request) error {
	var err error
	if r.Image != "" {
		err = checkImage(r)
	} else {
		err = checkEnv(r)
	}
	if err != nil {
		return err
	}
	if len(r.Canary.Steps) == 0 {
		return fmt.Errorf("the canary has no steps (write them like 1, 10%%, 50%%)")
	}
	_, err = model.CheckCanaryOnFailure(r.Canary.OnFailure)
	return err
}
