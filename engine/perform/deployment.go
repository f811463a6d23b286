package perform

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"rollscope/engine/actions"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
)

// changeCause is what set image records, or "" with Record off.
func (c *Cluster) changeCause(r action.Request) string {
	if !c.cfg.Record {
		return ""
	}
	return action.ChangeCause(r.Name, r.Container, r.Image)
}

// undo is kubectl's rollout undo with the way out of its refusal to roll
// back a paused deployment: with ResumeFirst it resumes first — once the
// revision is known to exist, so that a bad revision changes nothing — and
// pauses again when the undo then fails, leaving the deployment as it was.
func (c *Cluster) undo(ctx context.Context, r action.Request) (model.Rollback, error) {
	cl, t := c.cfg.Client, actions.Target{Namespace: r.Namespace, Name: r.Name}
	resumed := false
	if r.ResumeFirst {
		if _, err := c.undoPreview(ctx, r.Namespace, r.Name, r.Revision); err != nil {
			return model.Rollback{}, fmt.Errorf("cannot undo deployment/%s: %w", r.Name, err)
		}
		switch err := actions.Resume(ctx, cl, t); {
		case err == nil:
			resumed = true
		case !errors.Is(err, action.ErrNothingToDo):
			return model.Rollback{}, err
		}
	}
	held, err := c.canaryHold(ctx, t)
	if err != nil {
		return model.Rollback{}, err
	}
	done, err := actions.Undo(ctx, cl, t, r.Revision)
	if err == nil && held != nil {
		return done, c.endHold(ctx, t, *held)
	}
	if err != nil && resumed {
		if perr := actions.Pause(ctx, cl, t); perr != nil {
			return done, fmt.Errorf("%w — and it stays resumed: pausing it again failed too: %w", err, perr)
		}
		return done, fmt.Errorf("%w — paused it again, as it was", err)
	}
	return done, err
}

// Containers reads a deployment's containers, for the set image and set
// env dialogs.
func (c *Cluster) Containers(ctx context.Context, namespace, deployment string) ([]action.Container, error) {
	d, err := c.cfg.Client.AppsV1().Deployments(namespace).Get(ctx, deployment, metav1.GetOptions{})
	if err != nil {
		return nil, c.cfg.Explain(fmt.Errorf("cannot read deployment/%s: %w", deployment, err))
	}
	var out []action.Container
	for _, ct := range d.Spec.Template.Spec.Containers {
		ac := action.Container{Name: ct.Name, Image: ct.Image}
		for _, e := range ct.Env {
			v := e.Value
			if e.ValueFrom != nil {
				v = "(from a reference)"
			}
			ac.Env = append(ac.Env, e.Name+"="+v)
		}
		out = append(out, ac)
	}
	return out, nil
}

// UndoPreview diffs the current pod template against the one undo would
// bring back, read from the API as kubectl reads it: '-' lines the
// current template has, '+' lines the revision brings back.
func (c *Cluster) UndoPreview(ctx context.Context, namespace, deployment string, revision int64) ([]cluster.DiffLine, error) {
	diff, err := c.undoPreview(ctx, namespace, deployment, revision)
	return diff, c.cfg.Explain(err)
}

func (c *Cluster) undoPreview(ctx context.Context, namespace, deployment string, revision int64) ([]cluster.DiffLine, error) {
	d, err := c.cfg.Client.AppsV1().Deployments(namespace).Get(ctx, deployment, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("cannot read deployment/%s: %w", deployment, err)
	}
	rss, err := actions.OwnedReplicaSets(ctx, c.cfg.Client, d)
	if err != nil {
		return nil, err
	}
	rs, err := model.FindRevision(d, rss, revision)
	if err != nil {
		return nil, err
	}
	back := model.TemplateFromReplicaSet(rs)
	return cluster.TemplateDiff(&d.Spec.Template, &back), nil
}

// canaryHold is the Deployment's own settings when a guided canary holds
// it, nil otherwise. An undo copies the chosen revision's annotations, which
// carry no canary, so the canary's controller would never look at the
// Deployment again and the hold's minReadySeconds would keep every new pod
// from becoming available for good: the undo puts the settings back itself.
func (c *Cluster) canaryHold(ctx context.Context, t actions.Target) (*model.CanaryOriginal, error) {
	d, err := c.cfg.Client.AppsV1().Deployments(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("cannot undo %s: %w", t, err)
	}
	cn, ok, err := model.ReadCanary(d)
	if err != nil || !ok || !model.CanaryHeld(d) {
		return nil, nil
	}
	return &cn.Plan.Original, nil
}

// endHold puts a held Deployment's own strategy, minReadySeconds and
// progressDeadlineSeconds back after an undo.
func (c *Cluster) endHold(ctx context.Context, t actions.Target, o model.CanaryOriginal) error {
	api := c.cfg.Client.AppsV1().Deployments(t.Namespace)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := api.Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if !model.CanaryHeld(d) {
			return nil
		}
		u := d.DeepCopy()
		o.Restore(u)
		model.DropCanary(&u.ObjectMeta)
		_, err = api.Update(ctx, u, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("undone, but the canary's hold is still on %s (new pods never become available): %w — set its strategy, minReadySeconds and progressDeadlineSeconds back (kubectl edit)", t, err)
	}
	return nil
}
