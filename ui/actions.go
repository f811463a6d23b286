package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"rollscope/model"
)

// Actions is what the rollout keys call to change the cluster; cmd
// implements it over engine/actions, so each key sends what the matching
// kubectl command sends. Every method may block on the API server: the
// console calls them from commands, never from Update or View.
type Actions interface {
	// Inspect reads what the set image and set env dialogs need: the
	// deployment's containers as they are now.
	Inspect(ctx context.Context, namespace, name string) ([]Container, error)
	// Check refuses bad input before anything is sent: a malformed image,
	// an env name the API server rejects, replicas out of range.
	Check(ActionRequest) error
	// Do sends the request and says what happened in a few words ("ok",
	// "revision 7 aborted, back on revision 6"). An error wrapping
	// ErrNothingToDo means nothing was sent because nothing needed to be.
	Do(ctx context.Context, r ActionRequest) (string, error)
	// UndoPreview is how the pod template would change if the deployment
	// went back to revision: '-' lines the current template has, '+'
	// lines the revision brings back.
	UndoPreview(ctx context.Context, namespace, name string, revision int64) ([]model.DiffLine, error)
	// Forecast says what the rollout a set image, undo or abort starts
	// will do: scaling steps, peak pods, lowest availability, duration.
	Forecast(ctx context.Context, r ActionRequest) (string, error)
}

// ErrNothingToDo marks an action that sent nothing because the deployment
// is already as asked (already paused, already at that revision).
var ErrNothingToDo = errors.New("nothing to do")

// Container is one container of a deployment's pod template.
type Container struct {
	Name, Image string
	Env         []string // NAME=value, in order
}

// ActionKind is one of the rollout keys' actions.
type ActionKind int

const (
	ActSetImage ActionKind = iota + 1
	ActSetEnv
	ActScale
	ActRestart
	ActPause
	ActResume
	ActUndo
	ActAbort
)

// actionNames are the key map's names of the actions, by kind.
var actionKindNames = map[ActionKind]string{
	ActSetImage: "set-image", ActSetEnv: "set-env", ActScale: "scale", ActRestart: "restart",
	ActPause: "pause", ActResume: "resume", ActUndo: "undo", ActAbort: "abort",
}

// ActionKinds lists every kind, for permission checks.
func ActionKinds() []ActionKind {
	return []ActionKind{ActSetImage, ActSetEnv, ActScale, ActRestart, ActPause, ActResume, ActUndo, ActAbort}
}

// Name is the action's name in the key map and the config file.
func (k ActionKind) Name() string { return actionKindNames[k] }

// ActionRequest is one action on one deployment, as the dialog built it.
type ActionRequest struct {
	Kind                  ActionKind
	Namespace, Deployment string
	// Container is the container set image and set env change.
	Container string
	Image     string
	// Env is set env's NAME=value, or NAME- to remove NAME (kubectl's
	// syntax).
	Env      string
	Replicas int32
	// Revision is undo's target revision.
	Revision int64
	// ResumeFirst resumes a paused deployment before undoing, the way
	// out of kubectl's refusal to roll back a paused one.
	ResumeFirst bool
}

// EnvChange splits Env into the variable's name and value; remove is true
// for NAME-.
func (r ActionRequest) EnvChange() (name, value string, remove bool, err error) {
	if n, ok := strings.CutSuffix(r.Env, "-"); ok && !strings.Contains(r.Env, "=") {
		return n, "", true, nil
	}
	name, value, ok := strings.Cut(r.Env, "=")
	if !ok {
		return "", "", false, fmt.Errorf("write NAME=value to set a variable, or NAME- to remove it")
	}
	return name, value, false, nil
}

// Kubectl is the kubectl command that does the same, shown in the
// confirmation so the operator knows exactly what will be sent.
func (r ActionRequest) Kubectl() string {
	d := "deployment/" + r.Deployment
	ns := ""
	if r.Namespace != "" {
		ns = " -n " + r.Namespace
	}
	switch r.Kind {
	case ActSetImage:
		return fmt.Sprintf("kubectl%s set image %s %s=%s", ns, d, r.Container, r.Image)
	case ActSetEnv:
		return fmt.Sprintf("kubectl%s set env %s -c %s %s", ns, d, r.Container, r.Env)
	case ActScale:
		return fmt.Sprintf("kubectl%s scale %s --replicas=%d", ns, d, r.Replicas)
	case ActRestart:
		return fmt.Sprintf("kubectl%s rollout restart %s", ns, d)
	case ActPause:
		return fmt.Sprintf("kubectl%s rollout pause %s", ns, d)
	case ActResume:
		return fmt.Sprintf("kubectl%s rollout resume %s", ns, d)
	case ActUndo:
		undo := fmt.Sprintf("kubectl%s rollout undo %s --to-revision=%d", ns, d, r.Revision)
		if r.ResumeFirst {
			return fmt.Sprintf("kubectl%s rollout resume %s && ", ns, d) + undo
		}
		return undo
	case ActAbort:
		return "no kubectl command does this: one update of " + d + ", written with the resourceVersion read"
	}
	return ""
}

// Summary names the action in a few words, for the toast and the timeline.
func (r ActionRequest) Summary() string {
	switch r.Kind {
	case ActSetImage:
		return "set image " + r.Container + "=" + r.Image
	case ActSetEnv:
		return "set env " + r.Container + " " + r.Env
	case ActScale:
		return "scale to " + itoa(r.Replicas)
	case ActRestart:
		return "restart"
	case ActPause:
		return "pause"
	case ActResume:
		return "resume"
	case ActUndo:
		if r.ResumeFirst {
			return "resume and undo to revision " + itoa(r.Revision)
		}
		return "undo to revision " + itoa(r.Revision)
	case ActAbort:
		return "abort"
	}
	return "action"
}

// readOnlyReason is why every write is off with --read-only.
const readOnlyReason = "read-only: rollscope was started with --read-only"

// enableActions turns the rollout keys on when there is something to call,
// except those --read-only or the cluster's permissions forbid.
func enableActions(km *KeyMap, opts Options) {
	for _, kind := range ActionKinds() {
		name := kind.Name()
		switch {
		case opts.ReadOnly:
			km.Disable(name, readOnlyReason)
		case opts.Actions == nil:
			// Keep the default reason.
		case opts.Denied[name] != "":
			km.Disable(name, opts.Denied[name])
		default:
			km.Enable(name)
		}
	}
	if opts.ReadOnly {
		for _, name := range []string{"cordon", "uncordon", "drain", "roll-group", "next-step"} {
			km.Disable(name, readOnlyReason)
		}
	}
}
