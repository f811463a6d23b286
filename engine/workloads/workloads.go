// Package workloads changes workloads the way kubectl does, for every kind
// without verbs of its own (Changes): set image and set env patch the pod
// template, rollout restart stamps it, rollout undo patches back a
// ControllerRevision's template, scale and the partition patch a
// StatefulSet's spec. It reaches each kind through its row (kube/objects).
// The console's keys and scenario scripts reach it through engine/perform.
package workloads

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"rollscope/kube/objects"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// Target names one workload of a kind this package changes.
type Target struct {
	Kind            kind.Kind
	Namespace, Name string
}

func (t Target) String() string { return kind.Ref{Kind: t.Kind, Name: t.Name}.String() }

func (t Target) resource() string { return t.Kind.Resource().Resource }

// describe turns an API error into a sentence naming what was attempted and
// what to do.
func describe(what string, t Target, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded), apierrors.IsTimeout(err), apierrors.IsServerTimeout(err):
		return fmt.Errorf("cannot %s %s: the API server did not answer in time — nothing may have changed; look, then try again: %w", what, t, err)
	case apierrors.IsConflict(err):
		return fmt.Errorf("cannot %s %s: it kept changing under us (conflict after retries) — try again: %w", what, t, err)
	case apierrors.IsNotFound(err):
		return fmt.Errorf("cannot %s: %s %q not found in namespace %q: %w", what, t.Kind, t.Name, t.Namespace, err)
	case apierrors.IsForbidden(err):
		return fmt.Errorf("cannot %s %s: forbidden — ask for permission to patch %s in %q: %w", what, t, t.resource(), t.Namespace, err)
	case apierrors.IsInvalid(err):
		return fmt.Errorf("cannot %s %s: the API server rejected it: %w", what, t, err)
	}
	return fmt.Errorf("cannot %s %s: %w", what, t, err)
}

// Changes says whether this package changes workloads of kind k: every
// workload kind but Deployments and ReplicationControllers, which have
// verbs of their own (engine/actions).
//
// A custom resource's kind (Argo's Rollout) is not changed here: its
// project's own client sends its requests (restartAt, not a template
// annotation; undo to a ReplicaSet, not a ControllerRevision), so its
// verbs are refused until they are sent as that client sends them.
func Changes(k kind.Kind) bool {
	e, _ := k.Entry()
	_, ok := objects.For(k)
	return ok && e.Custom == "" && k != kind.Deployment && k != kind.ReplicationController
}

// row is the connection row of t's kind, when this package changes it.
func row(t Target) (objects.Row, bool) {
	if !Changes(t.Kind) {
		return objects.Row{}, false
	}
	return objects.For(t.Kind)
}

// Read is t as the API serves it, for a kind this package changes
// (Changes); the error is the API's, unexplained.
func Read(ctx context.Context, c kubernetes.Interface, t Target) (kind.Workload, error) {
	r, ok := row(t)
	if !ok {
		return nil, fmt.Errorf("cannot read %s: rollscope does not change its kind here", t)
	}
	return r.Get(ctx, c, t.Namespace, t.Name)
}

func get(ctx context.Context, c kubernetes.Interface, t Target, what string) (kind.Workload, error) {
	r, ok := row(t)
	if !ok {
		return nil, fmt.Errorf("cannot %s %s: rollscope does not change its kind here", what, t)
	}
	w, err := r.Get(ctx, c, t.Namespace, t.Name)
	if err != nil {
		return nil, describe(what, t, err)
	}
	return w, nil
}

func patch(ctx context.Context, c kubernetes.Interface, t Target, what string, pt types.PatchType, body []byte) error {
	r, ok := row(t)
	if !ok {
		return describe(what, t, fmt.Errorf("unknown kind %q", t.Kind))
	}
	if err := r.Patch(ctx, c, t.Namespace, t.Name, pt, body); err != nil {
		return describe(what, t, err)
	}
	return nil
}

type obj = map[string]any

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil { // maps of strings and numbers always marshal
		panic(err)
	}
	return b
}

func write(attempt func() error) error { return retry.RetryOnConflict(retry.DefaultRetry, attempt) }

func containerNames(t *corev1.PodTemplateSpec) []string {
	var out []string
	for _, c := range t.Spec.Containers {
		out = append(out, c.Name)
	}
	return out
}

func hasContainer(t *corev1.PodTemplateSpec, name string) bool {
	for _, c := range t.Spec.Containers {
		if c.Name == name {
			return true
		}
	}
	return false
}

// SetImage sets one container's image, as `kubectl set image` does. The
// image is the caller's to check (model.CheckImage): engine/perform checks
// a request once per pass, the scenario parser checks a script's.
func SetImage(ctx context.Context, c kubernetes.Interface, t Target, container, image string) error {
	return write(func() error {
		o, err := get(ctx, c, t, "set image")
		if err != nil {
			return err
		}
		if !hasContainer(o.Template(), container) {
			return fmt.Errorf("cannot set image of %s: it has no container %q (containers: %s)", t, container, strings.Join(containerNames(o.Template()), ", "))
		}
		p := obj{"spec": obj{"template": obj{"spec": obj{"containers": []obj{{"name": container, "image": image}}}}}}
		return patch(ctx, c, t, "set image", types.StrategicMergePatchType, mustJSON(p))
	})
}

// SetEnv sets (or, with remove, deletes) one variable of one container, as
// `kubectl set env` does.
func SetEnv(ctx context.Context, c kubernetes.Interface, t Target, container, name, value string, remove bool) error {
	if err := model.CheckEnvName(name); err != nil {
		return fmt.Errorf("cannot set env of %s: %w", t, err)
	}
	return write(func() error {
		o, err := get(ctx, c, t, "set env")
		if err != nil {
			return err
		}
		if !hasContainer(o.Template(), container) {
			return fmt.Errorf("cannot set env of %s: it has no container %q (containers: %s)", t, container, strings.Join(containerNames(o.Template()), ", "))
		}
		env := obj{"name": name, "value": value}
		if remove {
			env = obj{"name": name, "$patch": "delete"}
		}
		p := obj{"spec": obj{"template": obj{"spec": obj{"containers": []obj{{"name": container, "env": []obj{env}}}}}}}
		return patch(ctx, c, t, "set env", types.StrategicMergePatchType, mustJSON(p))
	})
}

// Restart stamps the pod template with kubectl.kubernetes.io/restartedAt, as
// `kubectl rollout restart` does; now is the time it writes (RFC 3339).
func Restart(ctx context.Context, c kubernetes.Interface, t Target, now string) error {
	if _, err := get(ctx, c, t, "restart"); err != nil {
		return err
	}
	p := obj{"spec": obj{"template": obj{"metadata": obj{"annotations": obj{"kubectl.kubernetes.io/restartedAt": now}}}}}
	return patch(ctx, c, t, "restart", types.StrategicMergePatchType, mustJSON(p))
}

// Revisions are the workload's ControllerRevisions as kubectl finds them:
// selected by its selector and controlled by it, oldest first.
func Revisions(ctx context.Context, c kubernetes.Interface, t Target) ([]*appsv1.ControllerRevision, error) {
	o, err := get(ctx, c, t, "read the history of")
	if err != nil {
		return nil, err
	}
	return revisionsOf(ctx, c, t, o)
}

func revisionsOf(ctx context.Context, c kubernetes.Interface, t Target, o kind.Workload) ([]*appsv1.ControllerRevision, error) {
	sel, err := metav1.LabelSelectorAsSelector(o.Selector())
	if err != nil {
		return nil, fmt.Errorf("%s has an invalid selector: %w", t, err)
	}
	list, err := c.AppsV1().ControllerRevisions(t.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, describe("list the controller revisions of", t, err)
	}
	var out []*appsv1.ControllerRevision
	for i := range list.Items {
		r := &list.Items[i]
		if ref := metav1.GetControllerOf(r); ref != nil && ref.UID == o.GetUID() {
			out = append(out, r)
		}
	}
	model.SortRevisions(out)
	return out, nil
}

// Undo rolls back to toRevision (0 = the one before the newest), as `kubectl
// rollout undo` does for these kinds: a strategic merge patch with the
// revision's data. It sends nothing when the template already is that
// revision's.
func Undo(ctx context.Context, c kubernetes.Interface, t Target, toRevision int64) (model.Rollback, error) {
	o, err := get(ctx, c, t, "undo")
	if err != nil {
		return model.Rollback{}, err
	}
	revs, err := revisionsOf(ctx, c, t, o)
	if err != nil {
		return model.Rollback{}, err
	}
	to, err := model.RevisionToRollBackTo(revs, toRevision)
	if err != nil {
		return model.Rollback{}, fmt.Errorf("cannot undo %s: %w", t, err)
	}
	current, err := model.TemplatePatch(o.Object())
	if err != nil {
		return model.Rollback{}, fmt.Errorf("cannot undo %s: %w", t, err)
	}
	if string(current) == string(to.Data.Raw) {
		return model.Rollback{}, fmt.Errorf("%s: skipped rollback (current template already matches revision %d): %w", t, to.Revision, action.ErrNothingToDo)
	}
	// The controller renumbers the revision it goes back to after the
	// newest.
	var newest int64
	for _, r := range revs {
		newest = max(newest, r.Revision)
	}
	done := model.Rollback{To: to.Revision, Now: newest + 1}
	return done, patch(ctx, c, t, "undo", types.StrategicMergePatchType, to.Data.Raw)
}

// Scale sets a StatefulSet's spec.replicas, as `kubectl scale` does.
func Scale(ctx context.Context, c kubernetes.Interface, t Target, replicas int32) error {
	if t.Kind != kind.StatefulSet {
		return fmt.Errorf("cannot scale %s: a DaemonSet runs one pod per node; change its node selector instead", t)
	}
	if replicas < 0 {
		return fmt.Errorf("cannot scale %s to %d: replicas are 0 or more", t, replicas)
	}
	return patch(ctx, c, t, "scale", types.MergePatchType, mustJSON(obj{"spec": obj{"replicas": replicas}}))
}

// SetPartition holds a StatefulSet's rolling update at an ordinal: pods below
// it stay at the current revision (`kubectl patch statefulset NAME -p
// '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":N}}}}'`). Lowering
// it step by step is the StatefulSet canary.
func SetPartition(ctx context.Context, c kubernetes.Interface, t Target, partition int32) error {
	if t.Kind != kind.StatefulSet {
		return fmt.Errorf("cannot set the partition of %s: only StatefulSets have one", t)
	}
	o, err := get(ctx, c, t, "set the partition of")
	if err != nil {
		return err
	}
	s := o.Object().(*appsv1.StatefulSet)
	if s.Spec.UpdateStrategy.Type != appsv1.RollingUpdateStatefulSetStrategyType {
		return fmt.Errorf("cannot set the partition of %s: its update strategy is %s — pods change only when deleted", t, s.Spec.UpdateStrategy.Type)
	}
	replicas := model.StatefulSetReplicas(s)
	if partition < 0 || partition > replicas {
		return fmt.Errorf("cannot set the partition of %s to %d: use 0 (update every pod) to %d (update none)", t, partition, replicas)
	}
	if model.StatefulSetPartition(s) == partition {
		return fmt.Errorf("%s is already partitioned at %d: %w", t, partition, action.ErrNothingToDo)
	}
	p := obj{"spec": obj{"updateStrategy": obj{"type": "RollingUpdate", "rollingUpdate": obj{"partition": partition}}}}
	return patch(ctx, c, t, "set the partition of", types.StrategicMergePatchType, mustJSON(p))
}
