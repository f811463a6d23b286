// Package actions changes rollouts the way kubectl does: each function sends
// the same request kubectl sends for the matching command, so that what the
// operator sees in rollscope is what kubectl would have done. The console's
// keys and the scenario scripts reach them through engine/perform.
package actions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/control"
	"rollscope/model"
	"rollscope/model/action"
)

// Target names a Deployment.
type Target struct {
	Namespace, Name string
}

func (t Target) String() string { return "deployment/" + t.Name }

// describe turns an API error into a sentence naming what was attempted.
func describe(what string, t Target, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded), apierrors.IsTimeout(err), apierrors.IsServerTimeout(err):
		return fmt.Errorf("cannot %s %s: the API server did not answer in time — whether the change was made is not known: %w", what, t, err)
	case strings.Contains(err.Error(), "admission webhook"):
		return fmt.Errorf("cannot %s %s: an admission webhook denied it: %w", what, t, err)
	case apierrors.IsConflict(err):
		return fmt.Errorf("cannot %s %s: it kept changing under us (conflict after retries) — try again: %w", what, t, err)
	case apierrors.IsNotFound(err):
		return fmt.Errorf("cannot %s: deployment %q not found in namespace %q: %w", what, t.Name, t.Namespace, err)
	case apierrors.IsForbidden(err):
		return fmt.Errorf("cannot %s %s: forbidden — ask for permission to patch deployments in %q: %w", what, t, t.Namespace, err)
	case apierrors.IsInvalid(err):
		return fmt.Errorf("cannot %s %s: the API server rejected it: %w", what, t, err)
	}
	return fmt.Errorf("cannot %s %s: %w", what, t, err)
}

func get(ctx context.Context, c kubernetes.Interface, t Target, what string) (*appsv1.Deployment, error) {
	d, err := c.AppsV1().Deployments(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return nil, describe(what, t, err)
	}
	return d, nil
}

func patch(ctx context.Context, c kubernetes.Interface, t Target, what string, pt types.PatchType, body []byte, sub ...string) error {
	_, err := c.AppsV1().Deployments(t.Namespace).Patch(ctx, t.Name, pt, body, metav1.PatchOptions{}, sub...)
	if err != nil {
		return describe(what, t, err)
	}
	return nil
}

// obj is a JSON object under construction.
type obj = map[string]any

// write runs one read-then-write attempt again, from a fresh read, while the
// API server answers 409 Conflict: another writer changed the object between
// our read and our write.
func write(attempt func() error) error {
	return control.RetryOnConflict(attempt)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil { // maps of strings and numbers always marshal
		panic(err)
	}
	return b
}

// SetImage sets one container's image, as `kubectl set image` does: a
// strategic merge patch of the container list. A non-empty changeCause is
// recorded in kubernetes.io/change-cause in the same patch. The image is
// the caller's to check (model.CheckImage): engine/perform checks a
// request once per pass, the scenario parser checks a script's.
func SetImage(ctx context.Context, c kubernetes.Interface, t Target, container, image, changeCause string) error {
	what := "set image"
	return write(func() error {
		d, err := get(ctx, c, t, what)
		if err != nil {
			return err
		}
		if !hasContainer(d, container) {
			return fmt.Errorf("cannot set image of %s: it has no container %q (containers: %s)", t, container, strings.Join(containerNames(d), ", "))
		}
		p := obj{"spec": obj{"template": obj{"spec": obj{"containers": []obj{{"name": container, "image": image}}}}}}
		if changeCause != "" {
			p["metadata"] = obj{"annotations": obj{"kubernetes.io/change-cause": changeCause}}
		}
		return patch(ctx, c, t, what, types.StrategicMergePatchType, mustJSON(p))
	})
}

// SetEnv sets (or, with remove, deletes) one environment variable of one
// container, as `kubectl set env` does.
func SetEnv(ctx context.Context, c kubernetes.Interface, t Target, container, name, value string, remove bool) error {
	what := "set env"
	check := model.CheckEnvName
	if remove {
		// As kubectl: only the names it sets are held to its rule.
		check = model.CheckDeclaredEnvName
	}
	if err := check(name); err != nil {
		return fmt.Errorf("cannot set env of %s: %w", t, err)
	}
	return write(func() error {
		d, err := get(ctx, c, t, what)
		if err != nil {
			return err
		}
		if !hasContainer(d, container) {
			return fmt.Errorf("cannot set env of %s: it has no container %q (containers: %s)", t, container, strings.Join(containerNames(d), ", "))
		}
		if unchanged(d, container, name, value, remove) {
			// The template would not change: no rollout, nothing to send.
			if remove {
				return fmt.Errorf("%s: %s is not set in container %s: %w", t, name, container, action.ErrNothingToDo)
			}
			return fmt.Errorf("%s: %s is already %q in container %s: %w", t, name, value, container, action.ErrNothingToDo)
		}
		env := obj{"name": name, "value": value}
		if remove {
			env = obj{"name": name, "$patch": "delete"}
		}
		p := obj{"spec": obj{"template": obj{"spec": obj{"containers": []obj{{"name": container, "env": []obj{env}}}}}}}
		return patch(ctx, c, t, what, types.StrategicMergePatchType, mustJSON(p))
	})
}

// Scale sets spec.replicas through the scale subresource, as `kubectl scale`.
func Scale(ctx context.Context, c kubernetes.Interface, t Target, replicas int32) error {
	if err := action.CheckReplicas(int64(replicas)); err != nil {
		return fmt.Errorf("cannot scale %s to %d: %w", t, replicas, err)
	}
	return write(func() error {
		return patch(ctx, c, t, "scale", types.MergePatchType, mustJSON(obj{"spec": obj{"replicas": replicas}}), "scale")
	})
}

// Pause sets spec.paused, as `kubectl rollout pause`.
func Pause(ctx context.Context, c kubernetes.Interface, t Target) error {
	return write(func() error {
		d, err := get(ctx, c, t, "pause")
		if err != nil {
			return err
		}
		if d.Spec.Paused {
			return fmt.Errorf("%s is already paused: %w", t, action.ErrNothingToDo)
		}
		return patch(ctx, c, t, "pause", types.StrategicMergePatchType, []byte(`{"spec":{"paused":true}}`))
	})
}

// Resume clears spec.paused, as `kubectl rollout resume`.
func Resume(ctx context.Context, c kubernetes.Interface, t Target) error {
	return write(func() error {
		d, err := get(ctx, c, t, "resume")
		if err != nil {
			return err
		}
		if !d.Spec.Paused {
			return fmt.Errorf("%s is not paused: %w", t, action.ErrNothingToDo)
		}
		return patch(ctx, c, t, "resume", types.StrategicMergePatchType, []byte(`{"spec":{"paused":null}}`))
	})
}

// Restart stamps the pod template with kubectl.kubernetes.io/restartedAt, as
// `kubectl rollout restart`; now is the stamp (RFC 3339).
func Restart(ctx context.Context, c kubernetes.Interface, t Target, now string) error {
	return write(func() error {
		d, err := get(ctx, c, t, "restart")
		if err != nil {
			return err
		}
		if d.Spec.Paused {
			return fmt.Errorf("cannot restart %s: it is paused — resume it first (r)", t)
		}
		p := obj{"spec": obj{"template": obj{"metadata": obj{"annotations": obj{"kubectl.kubernetes.io/restartedAt": now}}}}}
		return patch(ctx, c, t, "restart", types.StrategicMergePatchType, mustJSON(p))
	})
}

func hasContainer(d *appsv1.Deployment, name string) bool {
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == name {
			return true
		}
	}
	return false
}

func containerNames(d *appsv1.Deployment) []string {
	var names []string
	for _, c := range d.Spec.Template.Spec.Containers {
		names = append(names, c.Name)
	}
	return names
}

// Describe turns an API error into a sentence naming what was attempted on
// t, for the packages that write Deployments beside this one (engine/canary).
func Describe(what string, t Target, err error) error { return describe(what, t, err) }

// unchanged reports whether setting (or removing) name in container would
// leave the pod template as it is.
func unchanged(d *appsv1.Deployment, container, name, value string, remove bool) bool {
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name != container {
			continue
		}
		for _, e := range c.Env {
			if e.Name == name {
				return !remove && e.ValueFrom == nil && e.Value == value
			}
		}
		return remove
	}
	return false
}
