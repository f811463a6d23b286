package rollingupdate

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/scenario"
)

// ErrNotAnUpdate marks a scripted action a ReplicationController has no
// rolling-update meaning for.
var ErrNotAnUpdate = errors.New("not a rolling update action")

// PerformScripted runs a scenario's action on a ReplicationController the
// way the console's keys do: setImage asks Controller for a rolling update to
// the image (kubectl's defaults: maxSurge 1, maxUnavailable 0, a minute
// between scale-ups), abort asks for its rollback. The update itself runs
// wherever Controller runs, after the action has returned.
func PerformScripted(ctx context.Context, client kubernetes.Interface, namespace string, a scenario.Action) error {
	switch a.Kind {
	case scenario.ActionSetImage:
		return Ask(ctx, client, namespace, Request{Old: a.Target.Name, Container: a.Container, Image: a.Image})
	case scenario.ActionAbort:
		return AskAbort(ctx, client, namespace, a.Target.Name)
	}
	return fmt.Errorf("line %d: %s on %s: %w (ReplicationControllers take setImage, which starts a rolling update, and abort)", a.Line, a.Kind, a.Target, ErrNotAnUpdate)
}
