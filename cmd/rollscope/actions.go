package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/kube/access"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/ui"
)

// actionFlags are the console's flags for the rollout keys.
type actionFlags struct {
	yes, readOnly, record bool
}

func (f *actionFlags) addTo(fs *pflag.FlagSet) {
	fs.BoolVar(&f.yes, "yes", false, "send rollout actions without asking for y")
	fs.BoolVar(&f.readOnly, "read-only", false, "disable every key that would change the cluster")
	fs.BoolVar(&f.record, "record", true, "set image records kubernetes.io/change-cause (--record=false to leave it)")
}

// apply hands the console its actions on client; now is the cluster's clock
// (restart's restartedAt stamp).
func (f *actionFlags) apply(opts *ui.Options, client kubernetes.Interface, now func() time.Time) {
	opts.AssumeYes, opts.ReadOnly, opts.Record = f.yes, f.readOnly, f.record
	if !f.readOnly {
		opts.Actions = &clusterActions{client: client, record: f.record, now: now}
	}
}

// clusterActions is ui.Actions over engine/actions: each key sends what
// kubectl sends.
type clusterActions struct {
	client kubernetes.Interface
	record bool
	now    func() time.Time
}

func (a *clusterActions) Inspect(ctx context.Context, namespace, name string) ([]ui.Container, error) {
	d, err := a.client.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("cannot read deployment/%s: %w", name, err)
	}
	var out []ui.Container
	for _, c := range d.Spec.Template.Spec.Containers {
		uc := ui.Container{Name: c.Name, Image: c.Image}
		for _, e := range c.Env {
			v := e.Value
			if e.ValueFrom != nil {
				v = "(from a reference)"
			}
			uc.Env = append(uc.Env, e.Name+"="+v)
		}
		out = append(out, uc)
	}
	return out, nil
}

// Check refuses what the engine would refuse, before anything is sent.
func (a *clusterActions) Check(r ui.ActionRequest) error {
	switch r.Kind {
	case ui.ActSetImage:
		if r.Container == "" {
			return errors.New("pick a container first")
		}
		return actions.CheckImage(r.Image)
	case ui.ActSetEnv:
		name, _, _, err := r.EnvChange()
		if err != nil {
			return err
		}
		return actions.CheckEnvName(name)
	case ui.ActScale:
		return actions.CheckReplicas(int64(r.Replicas))
	case ui.ActUndo:
		if r.Revision < 1 {
			return fmt.Errorf("revision %d does not exist — revisions are 1 or more", r.Revision)
		}
	}
	return nil
}

func (a *clusterActions) Do(ctx context.Context, r ui.ActionRequest) (string, error) {
	if err := a.Check(r); err != nil {
		return "", err
	}
	t := actions.Target{Namespace: r.Namespace, Name: r.Deployment}
	c := a.client
	var err error
	switch r.Kind {
	case ui.ActSetImage:
		cause := ""
		if a.record {
			cause = fmt.Sprintf("rollscope set image deployment/%s %s=%s", r.Deployment, r.Container, r.Image)
		}
		err = actions.SetImage(ctx, c, t, r.Container, r.Image, cause)
	case ui.ActSetEnv:
		name, value, remove, _ := r.EnvChange()
		err = actions.SetEnv(ctx, c, t, r.Container, name, value, remove)
	case ui.ActScale:
		err = actions.Scale(ctx, c, t, r.Replicas)
	case ui.ActRestart:
		err = actions.Restart(ctx, c, t, a.now().UTC().Format(time.RFC3339))
	case ui.ActPause:
		err = actions.Pause(ctx, c, t)
	case ui.ActResume:
		err = actions.Resume(ctx, c, t)
	case ui.ActUndo:
		resumed := false
		if r.ResumeFirst {
			// A revision that is not there is refused before the resume.
			if _, err := a.UndoPreview(ctx, r.Namespace, r.Deployment, r.Revision); err != nil {
				return "", fmt.Errorf("cannot undo deployment/%s: %w", r.Deployment, err)
			}
			switch err := actions.Resume(ctx, c, t); {
			case err == nil:
				resumed = true
			case !errors.Is(err, action.ErrNothingToDo):
				return "", err
			}
		}
		err = actions.Undo(ctx, c, t, r.Revision)
		if err != nil && resumed {
			// Leave the cluster as it was: paused, on the same template.
			if perr := actions.Pause(ctx, c, t); perr != nil {
				return "", fmt.Errorf("%w — and it stays resumed: pausing it again failed too: %w", err, perr)
			}
			return "", fmt.Errorf("%w — paused it again, as it was", err)
		}
	case ui.ActAbort:
		var done actions.Aborted
		done, err = actions.Abort(ctx, c, t)
		if err == nil {
			return done.String(), nil
		}
	default:
		return "", fmt.Errorf("unknown action %d", r.Kind)
	}
	if errors.Is(err, action.ErrNothingToDo) {
		return "", nothingToDo{err}
	}
	if err != nil {
		return "", err
	}
	return "ok", nil
}

// nothingToDo carries the engine's refusal to the console as
// ui.ErrNothingToDo, keeping its words.
type nothingToDo struct{ err error }

func (n nothingToDo) Error() string   { return n.err.Error() }
func (n nothingToDo) Unwrap() []error { return []error{n.err, ui.ErrNothingToDo} }

// UndoPreview diffs the current pod template against the one undo would
// bring back, read from the API as kubectl reads it.
func (a *clusterActions) UndoPreview(ctx context.Context, namespace, name string, revision int64) ([]model.DiffLine, error) {
	d, err := a.client.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("cannot read deployment/%s: %w", name, err)
	}
	rss, err := actions.OwnedReplicaSets(ctx, a.client, d)
	if err != nil {
		return nil, err
	}
	rs, err := model.FindRevision(d, rss, revision)
	if err != nil {
		return nil, err
	}
	back := model.TemplateFromReplicaSet(rs)
	return model.TemplateDiff(&d.Spec.Template, &back), nil
}

// accessTimeout bounds the permission checks at start: a slow API server
// delays the first frame by at most this much.
const accessTimeout = 5 * time.Second

// checkAccess disables the keys a live cluster will not allow, with the
// reason (SelfSubjectAccessReviews). The embedded cluster has no RBAC.
func (f *actionFlags) checkAccess(ctx context.Context, opts *ui.Options, client kubernetes.Interface, namespace string) {
	if f.readOnly {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	// The node keys' answers are asked again, with --delete-nodes, by
	// checkNodeAccess and replace these.
	opts.Denied = map[string]string{}
	for name, why := range access.Denied(ctx, client, namespace, false) {
		opts.Denied[string(name)] = why
	}
}

// Forecast rehearses the request on a copy of the deployment, running the
// real deployment and ReplicaSet controllers on it (forecast.go).
func (a *clusterActions) Forecast(ctx context.Context, r ui.ActionRequest) (string, error) {
	return forecastRequest(ctx, a.client, a.now(), r)
}
