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
// (restart's restartedAt stamp). The node flags must have set
// opts.RollDefaults first: a roll deletes drained nodes by them.
func (f *actionFlags) apply(opts *ui.Options, client kubernetes.Interface, now func() time.Time) {
	opts.AssumeYes, opts.ReadOnly, opts.Record = f.yes, f.readOnly, f.record
	if !f.readOnly {
		opts.Actions = &consoleActions{
			clusterActions: &clusterActions{client: client, record: f.record, now: now},
			nodeActions:    &nodeActions{client: client, now: now, deleteNodes: opts.RollDefaults.DeleteNodes},
		}
	}
}

// consoleActions are every key's actions (ui.Actions): the node keys'
// requests go to nodeActions, the rollout and ReplicationController keys'
// to clusterActions.
type consoleActions struct {
	*clusterActions
	*nodeActions
}

var _ ui.Actions = (*consoleActions)(nil)

func (a *consoleActions) Check(r action.Request) error {
	if onNodes(r) {
		return a.nodeActions.check(r)
	}
	return a.clusterActions.Check(r)
}

func (a *consoleActions) Send(ctx context.Context, r action.Request) (string, error) {
	if onNodes(r) {
		return a.nodeActions.send(ctx, r)
	}
	return a.clusterActions.Send(ctx, r)
}

// onNodes reports whether r acts on nodes or a node group.
func onNodes(r action.Request) bool {
	on := r.Spec().On
	return on == action.OnNode || on == action.OnNodeGroup
}

// clusterActions sends the rollout keys' requests over engine/actions, each
// what kubectl sends, and the ReplicationController view's (rcactions.go).
type clusterActions struct {
	client kubernetes.Interface
	record bool
	now    func() time.Time
}

func (a *clusterActions) Containers(ctx context.Context, namespace, name string) ([]action.Container, error) {
	d, err := a.client.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("cannot read deployment/%s: %w", name, err)
	}
	var out []action.Container
	for _, c := range d.Spec.Template.Spec.Containers {
		uc := action.Container{Name: c.Name, Image: c.Image}
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
func (a *clusterActions) Check(r action.Request) error {
	switch r.Action {
	case action.SetImage:
		if r.Container == "" {
			return errors.New("pick a container first")
		}
		return actions.CheckImage(r.Image)
	case action.SetEnv:
		name, _, _, err := r.EnvChange()
		if err != nil {
			return err
		}
		return actions.CheckEnvName(name)
	case action.Scale:
		return actions.CheckReplicas(int64(r.Replicas))
	case action.Undo:
		if r.Revision < 1 {
			return fmt.Errorf("revision %d does not exist — revisions are 1 or more", r.Revision)
		}
	}
	return nil
}

func (a *clusterActions) Send(ctx context.Context, r action.Request) (string, error) {
	if err := a.Check(r); err != nil {
		return "", err
	}
	t := actions.Target{Namespace: r.Namespace, Name: r.Name}
	c := a.client
	var err error
	switch r.Action {
	case action.RCUpdate, action.RCAbort:
		return a.sendRC(ctx, r)
	case action.SetImage:
		cause := ""
		if a.record {
			cause = action.ChangeCause(r.Name, r.Container, r.Image)
		}
		err = actions.SetImage(ctx, c, t, r.Container, r.Image, cause)
	case action.SetEnv:
		name, value, remove, _ := r.EnvChange()
		err = actions.SetEnv(ctx, c, t, r.Container, name, value, remove)
	case action.Scale:
		err = actions.Scale(ctx, c, t, r.Replicas)
	case action.Restart:
		err = actions.Restart(ctx, c, t, a.now().UTC().Format(time.RFC3339))
	case action.Pause:
		err = actions.Pause(ctx, c, t)
	case action.Resume:
		err = actions.Resume(ctx, c, t)
	case action.Undo:
		resumed := false
		if r.ResumeFirst {
			// A revision that is not there is refused before the resume.
			if _, err := a.UndoPreview(ctx, r.Namespace, r.Name, r.Revision); err != nil {
				return "", fmt.Errorf("cannot undo deployment/%s: %w", r.Name, err)
			}
			switch err := actions.Resume(ctx, c, t); {
			case err == nil:
				resumed = true
			case !errors.Is(err, actions.ErrNothingToDo):
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
	case action.Abort:
		var done actions.Aborted
		done, err = actions.Abort(ctx, c, t)
		if err == nil {
			return done.String(), nil
		}
	default:
		return "", fmt.Errorf("unknown action %q", r.Action)
	}
	if errors.Is(err, actions.ErrNothingToDo) {
		return "", nothingToDo{err}
	}
	if err != nil {
		return "", err
	}
	return "ok", nil
}

// nothingToDo carries the engine's refusal to the console as
// action.ErrNothingToDo, keeping its words.
type nothingToDo struct{ err error }

func (n nothingToDo) Error() string   { return n.err.Error() }
func (n nothingToDo) Unwrap() []error { return []error{n.err, action.ErrNothingToDo} }

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
	opts.Denied = byName(access.Denied(ctx, client, namespace))
}

// byName keys kube/access's answers by action name, as the console takes
// them.
func byName(denied map[string]string) map[action.Name]string {
	out := make(map[action.Name]string, len(denied))
	for name, why := range denied {
		out[action.Name(name)] = why
	}
	return out
}

// Forecast rehearses the request on a copy of the deployment, running the
// real deployment and ReplicaSet controllers on it (forecast.go).
func (a *clusterActions) Forecast(ctx context.Context, r action.Request) (string, error) {
	return forecastRequest(ctx, a.client, a.now(), r)
}
