// Package argo sends the actions on Argo Rollouts exactly as Argo's
// kubectl plugin (`kubectl argo rollouts …`, v1.10) sends them: it reads
// the Rollout through the connection's dynamic client (kube/objects'
// DynamicOf), asks model/argo whether the action can work in the
// Rollout's state and what the plugin would send, and sends that — or,
// when refused, nothing. The console's keys reach it through
// engine/perform.
package argo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/control"
	"rollscope/kube/objects"
	"rollscope/model/action"
	rules "rollscope/model/argo"
)

// Target names one Rollout.
type Target struct{ Namespace, Name string }

func (t Target) String() string { return "rollout/" + t.Name }

// rollouts is the Rollouts of t's namespace on c's dynamic client.
func rollouts(c kubernetes.Interface) (dynamic.NamespaceableResourceInterface, error) {
	d, err := objects.DynamicOf(c)
	if err != nil {
		return nil, err
	}
	return d.Resource(rules.Rollouts), nil
}

// nothingToDo is a refusal because the Rollout already is as asked: its
// own sentence, and action.ErrNothingToDo for the console's ⊘.
type nothingToDo struct{ err error }

func (e nothingToDo) Error() string   { return e.err.Error() }
func (e nothingToDo) Unwrap() []error { return []error{e.err, action.ErrNothingToDo} }

func refused(err error) error {
	if errors.Is(err, rules.ErrNoChange) {
		return nothingToDo{err}
	}
	return err
}

// describe turns an API error into a sentence naming what was attempted
// and what to do; perm is the permission the request needed.
func describe(what string, t Target, perm string, err error) error {
	switch {
	case errors.Is(err, objects.ErrNoCustomResources):
		return fmt.Errorf("cannot %s %s: %w", what, t, err)
	case errors.Is(err, context.DeadlineExceeded), apierrors.IsTimeout(err), apierrors.IsServerTimeout(err):
		return fmt.Errorf("cannot %s %s: the API server did not answer in time — nothing may have changed; look, then try again: %w", what, t, err)
	case apierrors.IsConflict(err):
		return fmt.Errorf("cannot %s %s: it kept changing under us (conflict after retries) — try again: %w", what, t, err)
	case apierrors.IsNotFound(err):
		return fmt.Errorf("cannot %s: rollout %q not found in namespace %q (or the cluster serves no Argo Rollouts): %w", what, t.Name, t.Namespace, err)
	case apierrors.IsForbidden(err):
		return fmt.Errorf("cannot %s %s: forbidden — ask for permission to %s in %q: %w", what, t, perm, t.Namespace, err)
	case apierrors.IsInvalid(err):
		return fmt.Errorf("cannot %s %s: the API server rejected it: %w", what, t, err)
	}
	return fmt.Errorf("cannot %s %s: %w", what, t, err)
}

// read gets the Rollout as served and as rollscope models it.
func read(ctx context.Context, ri dynamic.ResourceInterface, t Target, what string) (*unstructured.Unstructured, *rules.Rollout, error) {
	u, err := ri.Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, describe(what, t, "get rollouts.argoproj.io", err)
	}
	r, err := rules.RolloutOf(u)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot %s %s: %w", what, t, err)
	}
	return u, r, nil
}

// send sends the writes in order. A status patch answered NotFound — the
// Rollout was read, so its CRD has no status subresource (Argo before
// v0.10) — is replaced, with every write after it, by its Instead on the
// main resource, as the plugin does.
func send(ctx context.Context, ri dynamic.ResourceInterface, t Target, what string, writes []rules.Write) error {
	for _, w := range writes {
		var sub []string
		perm := "patch rollouts.argoproj.io"
		if w.Subresource != "" {
			sub = []string{w.Subresource}
			perm += "/" + w.Subresource
		}
		_, err := ri.Patch(ctx, t.Name, w.Type, w.Body, metav1.PatchOptions{}, sub...)
		if err != nil && w.Instead != nil && apierrors.IsNotFound(err) {
			if _, err := ri.Patch(ctx, t.Name, w.Type, w.Instead, metav1.PatchOptions{}); err != nil {
				return describe(what, t, "patch rollouts.argoproj.io", err)
			}
			return nil
		}
		if err != nil {
			return describe(what, t, perm, err)
		}
	}
	return nil
}

// Command is one of the plugin's commands that its Rollout's state
// decides: read the Rollout, ask the rule, send what it says.
type Command struct {
	what, done string
	rule       func(*rules.Rollout) ([]rules.Write, error)
}

// The commands the Rollout's state decides: `kubectl argo rollouts
// promote [--full]`, `abort`, `retry rollout`, `pause`, and the resume the
// plugin has no command for (model/argo.Resume).
var (
	Promote     = Command{"promote", "promoted", rules.Promote}
	PromoteFull = Command{"promote fully", "fully promoted", rules.PromoteFull}
	Abort       = Command{"abort", "aborted", rules.Abort}
	Retry       = Command{"retry", "retried", rules.Retry}
	Pause       = Command{"pause", "paused", rules.Pause}
	Resume      = Command{"resume", "resumed", rules.Resume}
)

// Send reads Rollout t, asks the command's rule what to send, and sends
// it, answering with the plugin's line ("rollout 'checkout' promoted");
// refused, it sends nothing and says why.
func (cmd Command) Send(ctx context.Context, c kubernetes.Interface, t Target) (string, error) {
	res, err := rollouts(c)
	if err != nil {
		return "", describe(cmd.what, t, "", err)
	}
	ri := res.Namespace(t.Namespace)
	_, r, err := read(ctx, ri, t, cmd.what)
	if err != nil {
		return "", err
	}
	writes, err := cmd.rule(r)
	if err != nil {
		return "", refused(err)
	}
	if err := send(ctx, ri, t, cmd.what, writes); err != nil {
		return "", err
	}
	return fmt.Sprintf("rollout '%s' %s", t.Name, cmd.done), nil
}

// Restart is `kubectl argo rollouts restart NAME`: one patch, as the
// plugin sends it, with no read before.
func Restart(ctx context.Context, c kubernetes.Interface, t Target, now time.Time) (string, error) {
	res, err := rollouts(c)
	if err != nil {
		return "", describe("restart", t, "", err)
	}
	if err := send(ctx, res.Namespace(t.Namespace), t, "restart", rules.Restart(now)); err != nil {
		return "", err
	}
	return fmt.Sprintf("rollout '%s' restarts in 0s", t.Name), nil
}

// Scale is `kubectl scale rollout NAME --replicas=N`: one patch of the
// scale subresource.
func Scale(ctx context.Context, c kubernetes.Interface, t Target, replicas int32) (string, error) {
	writes, err := rules.Scale(replicas)
	if err != nil {
		return "", fmt.Errorf("cannot scale %s: %w", t, err)
	}
	res, err := rollouts(c)
	if err != nil {
		return "", describe("scale", t, "", err)
	}
	if err := send(ctx, res.Namespace(t.Namespace), t, "scale", writes); err != nil {
		return "", err
	}
	return "rollout.argoproj.io/" + t.Name + " scaled", nil
}

// SetImage is `kubectl argo rollouts set image NAME CONTAINER=IMAGE`: the
// Rollout (or its workloadRef's Deployment) read, its image changed and
// sent back whole, read again on a conflict. The image is the caller's to
// check (model.CheckImage).
func SetImage(ctx context.Context, c kubernetes.Interface, t Target, container, image string) (string, error) {
	d, err := objects.DynamicOf(c)
	if err != nil {
		return "", describe("set image of", t, "", err)
	}
	ri := d.Resource(rules.Rollouts).Namespace(t.Namespace)
	var updated *unstructured.Unstructured
	err = control.RetryOnConflict(func() error {
		ro, _, err := read(ctx, ri, t, "set image of")
		if err != nil {
			return err
		}
		target, perm := ri, "update rollouts.argoproj.io"
		obj := ro
		if name, ok, err := rules.ImageTarget(ro); err != nil {
			return fmt.Errorf("cannot set image of %s: %w", t, err)
		} else if ok {
			target, perm = d.Resource(rules.Deployments).Namespace(t.Namespace), "update deployments.apps"
			if obj, err = target.Get(ctx, name, metav1.GetOptions{}); err != nil {
				return describe("set image of", t, "get deployments.apps", err)
			}
		}
		changed, err := rules.SetImage(obj, container, image)
		if err != nil {
			return fmt.Errorf("cannot set image of %s: %w", t, err)
		}
		if _, err := target.Update(ctx, changed, metav1.UpdateOptions{}); err != nil {
			if apierrors.IsConflict(err) {
				return err
			}
			return describe("set image of", t, perm, err)
		}
		updated = changed
		return nil
	})
	if apierrors.IsConflict(err) {
		return "", describe("set image of", t, "", err)
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %q image updated", strings.ToLower(updated.GetKind()), updated.GetName()), nil
}

// Undo is `kubectl argo rollouts undo NAME --to-revision=N` (0: the
// revision before the newest): the Rollout read, its ReplicaSets listed,
// the revision's template sent back as a JSON patch — to the Rollout, or
// to the object its workloadRef names.
func Undo(ctx context.Context, c kubernetes.Interface, t Target, toRevision int64) (string, error) {
	res, err := rollouts(c)
	if err != nil {
		return "", describe("undo", t, "", err)
	}
	ri := res.Namespace(t.Namespace)
	ro, _, err := read(ctx, ri, t, "undo")
	if err != nil {
		return "", err
	}
	sel, err := rules.ReplicaSetSelector(ro)
	if err != nil {
		return "", fmt.Errorf("cannot undo %s: %w", t, err)
	}
	list, err := c.AppsV1().ReplicaSets(t.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return "", describe("undo", t, "list replicasets.apps", err)
	}
	u, err := rules.UndoTo(ro, list.Items, toRevision)
	if err != nil {
		return "", refused(fmt.Errorf("cannot undo: %w", err))
	}
	done := fmt.Sprintf("rollout '%s' back on revision %d's template", t.Name, u.Revision)
	if u.Ref == nil {
		if _, err := ri.Patch(ctx, t.Name, types.JSONPatchType, u.Patch, metav1.PatchOptions{}); err != nil {
			return "", describe("undo", t, "patch rollouts.argoproj.io", err)
		}
		return done, nil
	}
	opts := metav1.PatchOptions{}
	switch u.Ref.Kind {
	case "Deployment":
		_, err = c.AppsV1().Deployments(t.Namespace).Patch(ctx, u.Ref.Name, types.JSONPatchType, u.Patch, opts)
	case "ReplicaSet":
		_, err = c.AppsV1().ReplicaSets(t.Namespace).Patch(ctx, u.Ref.Name, types.JSONPatchType, u.Patch, opts)
	case "PodTemplate":
		_, err = c.CoreV1().PodTemplates(t.Namespace).Patch(ctx, u.Ref.Name, types.JSONPatchType, u.Patch, opts)
	}
	if err != nil {
		return "", describe("undo", t, "patch the "+u.Ref.Kind+" "+u.Ref.Name+" its workloadRef names", err)
	}
	return done + " (on " + u.Ref.Kind + " " + u.Ref.Name + ")", nil
}
