package canary

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"rollscope/engine/actions"
	"rollscope/model"
	"rollscope/model/action"
)

// Target names a Deployment.
type Target = actions.Target

// Start starts a canary: one update of the Deployment with the template
// change, step 1's hold and the plan, written with the resourceVersion
// read. The controller (this package's, wherever rollscope runs it) drives
// it from there.
func Start(ctx context.Context, cl kubernetes.Interface, t Target, a Ask, now time.Time) (model.Canary, error) {
	var c model.Canary
	err := update(ctx, cl, t, "start a canary on", func(d *appsv1.Deployment) (*appsv1.Deployment, error) {
		var u *appsv1.Deployment
		var err error
		c, u, err = Plan(d, a, now)
		if err != nil {
			return nil, fmt.Errorf("cannot start a canary on %s: %w", t, err)
		}
		return u, nil
	})
	return c, err
}

// Promote moves the canary to its next step, or with full to 100%. from is
// the step the operator saw (0: whichever it is): a canary that has moved on
// meanwhile is not promoted twice.
func Promote(ctx context.Context, cl kubernetes.Interface, t Target, from int, full bool, now time.Time) (model.CanaryState, error) {
	var st model.CanaryState
	err := update(ctx, cl, t, "promote the canary of", func(d *appsv1.Deployment) (*appsv1.Deployment, error) {
		c, err := current(d, t)
		if err != nil {
			return nil, err
		}
		if c.State.Phase == model.CanaryRolling {
			return nil, fmt.Errorf("the canary of %s is at its last step (100%%), rolling out on the deployment's own strategy — nothing to promote: %w", t, action.ErrNothingToDo)
		}
		if from != 0 && c.State.Step != from {
			return nil, fmt.Errorf("the canary of %s moved on to step %d of %d meanwhile — look, then promote again", t, c.State.Step, c.Plan.Last())
		}
		to := c.State.Step + 1
		if full {
			to = c.Plan.Last()
		}
		u := advance(d, c, to, now)
		st, _, _ = readState(u)
		return u, nil
	})
	return st, err
}

// Abort ends d's rollout on its stable revision as x does. On a canary it
// also puts the Deployment's own strategy, minReadySeconds and
// progressDeadlineSeconds back, in the same update; on any other rollout it
// is actions.Abort.
func Abort(ctx context.Context, cl kubernetes.Interface, t Target) (model.Abort, error) {
	d, err := cl.AppsV1().Deployments(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return actions.Abort(ctx, cl, t)
	}
	if c, ok, _ := model.ReadCanary(d); !ok || !model.CanaryCurrent(d, c) {
		return actions.Abort(ctx, cl, t)
	}
	var done model.Abort
	err = update(ctx, cl, t, "abort the canary of", func(d *appsv1.Deployment) (*appsv1.Deployment, error) {
		c, err := current(d, t)
		if err != nil {
			return nil, err
		}
		rss, err := actions.OwnedReplicaSets(ctx, cl, d)
		if err != nil {
			return nil, err
		}
		u, a, err := rollBack(d, rss, c)
		if err != nil {
			return nil, fmt.Errorf("cannot abort the canary of %s: %w", t, err)
		}
		done = a
		return u, nil
	})
	return done, err
}

// current reads d's canary, refusing a Deployment that runs none.
func current(d *appsv1.Deployment, t Target) (model.Canary, error) {
	c, ok, err := model.ReadCanary(d)
	if err != nil {
		return c, err
	}
	if !ok || !model.CanaryCurrent(d, c) {
		return c, fmt.Errorf("%s runs no canary (start one with the canary key): %w", t, action.ErrNothingToDo)
	}
	return c, nil
}

func readState(d *appsv1.Deployment) (model.CanaryState, bool, error) {
	c, ok, err := model.ReadCanary(d)
	return c.State, ok, err
}

// update reads the Deployment, lets change decide the new one, and writes
// it with the resourceVersion read, again from a fresh read while the API
// server answers Conflict.
func update(ctx context.Context, cl kubernetes.Interface, t Target, what string, change func(*appsv1.Deployment) (*appsv1.Deployment, error)) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := cl.AppsV1().Deployments(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return actions.Describe(what, t, err)
		}
		u, err := change(d)
		if err != nil {
			return err
		}
		if _, err := cl.AppsV1().Deployments(t.Namespace).Update(ctx, u, metav1.UpdateOptions{}); err != nil {
			return actions.Describe(what, t, err)
		}
		return nil
	})
}
