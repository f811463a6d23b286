package actions

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/actions"
	"rollscope/engine/perform"
	"rollscope/model"
	"rollscope/model/action"
)

// sentOnlyAtLeast fails the test unless the client sent only the write
// want, at least n times, since the last look.
func (c *counted) sentOnlyAtLeast(t *testing.T, what, want string, n int) {
	t.Helper()
	got := c.sent()
	for _, w := range got {
		if w != want {
			t.Errorf("%s sent %q, want only %q", what, got, want)
			return
		}
	}
	if len(got) < n {
		t.Errorf("%s sent %q, want %q at least %d times", what, got, want, n)
	}
}

// Every action against the real API server and deployment controller, one
// control plane for all, each in its own namespace and in parallel.
func TestActionsOnARealControlPlane(t *testing.T) {
	e := start(t)
	for _, tc := range []struct {
		name string
		run  func(*testing.T, *env)
	}{
		{"set-image", testSetImage},
		{"set-env", testSetEnv},
		{"scale", testScale},
		{"restart", testRestart},
		{"pause-resume", testPauseResume},
		{"undo", testUndo},
		{"abort", testAbort},
		{"conflict", testConflictRetry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, e)
		})
	}
}

// deploymentPath is the API path of the deployment, as the requests name it.
func deploymentPath(target actions.Target, sub string) string {
	p := fmt.Sprintf("/apis/apps/v1/namespaces/%s/deployments/%s", target.Namespace, target.Name)
	if sub != "" {
		p += "/" + sub
	}
	return p
}

// sentOnly fails the test unless the client sent exactly want since the
// last look.
func (c *counted) sentOnly(t *testing.T, what string, want ...string) {
	t.Helper()
	if got := c.sent(); strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("%s sent %q, want %q", what, got, want)
	}
}

// Set image patches the container list and records the change cause; the
// controller rolls out a new revision that carries it. Bad input sends
// nothing.
func testSetImage(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.deployment(t, "set-image", "e2e.example/app:v1", 3)
	c := e.counting(t)
	cause := "rollscope set image deployment/web app=e2e.example/app:v2"
	if err := actions.SetImage(ctx, c, target, "app", "e2e.example/app:v2", cause); err != nil {
		t.Fatal(err)
	}
	c.sentOnly(t, "set image", "PATCH "+deploymentPath(target, ""))
	d := e.rolledOut(t, target, image("e2e.example/app:v2"))
	if d.Annotations[model.ChangeCauseAnnotation] != cause || d.Annotations[model.RevisionAnnotation] != "2" {
		t.Errorf("deployment annotations %v, want the change cause and revision 2", d.Annotations)
	}
	rss, err := e.replicaSets(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if rs := rss[2]; rs == nil || rs.Annotations[model.ChangeCauseAnnotation] != cause || model.SpecReplicas(rss[1]) != 0 {
		t.Errorf("revision 2's ReplicaSet %v does not carry the change cause, or revision 1 still runs", rs)
	}

	// The image is checked where every request is, in engine/perform.
	send := perform.New(perform.Config{Client: c})
	for _, bad := range []struct{ container, image string }{{"nope", "e2e.example/app:v3"}, {"app", "Not A Reference"}, {"app", ""}} {
		r := action.Request{Action: action.SetImage, Namespace: target.Namespace, Name: target.Name, Container: bad.container, Image: bad.image}
		if _, err := send.Send(ctx, r); err == nil {
			t.Errorf("set image %s=%q was accepted", bad.container, bad.image)
		}
	}
	c.nothingSent(t, "set image with bad input")
}

// Set env adds a variable to the template (a new revision rolls out), then
// removes it again; a name Kubernetes rejects sends nothing.
func testSetEnv(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.deployment(t, "set-env", "e2e.example/app:v1", 2)
	c := e.counting(t)
	if err := actions.SetEnv(ctx, c, target, "app", "LOG_LEVEL", "debug", false); err != nil {
		t.Fatal(err)
	}
	c.sentOnly(t, "set env", "PATCH "+deploymentPath(target, ""))
	env := func(d *appsv1.Deployment) []corev1.EnvVar { return d.Spec.Template.Spec.Containers[0].Env }
	d := e.rolledOut(t, target, template{"with LOG_LEVEL=debug", func(d *appsv1.Deployment) bool {
		v := env(d)
		return len(v) == 1 && v[0].Name == "LOG_LEVEL" && v[0].Value == "debug"
	}})
	if d.Annotations[model.RevisionAnnotation] != "2" {
		t.Errorf("revision %s after set env, want 2", d.Annotations[model.RevisionAnnotation])
	}
	if err := actions.SetEnv(ctx, c, target, "app", "LOG_LEVEL", "", true); err != nil {
		t.Fatal(err)
	}
	// Without the variable the template is revision 1's again: the
	// controller takes its ReplicaSet back as revision 3.
	d = e.rolledOut(t, target, template{"without LOG_LEVEL", func(d *appsv1.Deployment) bool { return len(env(d)) == 0 }})
	if d.Annotations[model.RevisionAnnotation] != "3" {
		t.Errorf("revision %s after removing the variable, want 3", d.Annotations[model.RevisionAnnotation])
	}
	c.sent()
	if err := actions.SetEnv(ctx, c, target, "app", "1-BAD=", "x", false); err == nil {
		t.Error("an invalid variable name was accepted")
	}
	c.nothingSent(t, "set env with an invalid name")
}

// Scale goes through the scale subresource and starts no rollout.
func testScale(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.deployment(t, "scale", "e2e.example/app:v1", 2)
	c := e.counting(t)
	if err := actions.Scale(ctx, c, target, 5); err != nil {
		t.Fatal(err)
	}
	c.sentOnly(t, "scale", "PATCH "+deploymentPath(target, "scale"))
	d := e.rolledOut(t, target, template{"with 5 replicas", func(d *appsv1.Deployment) bool { return model.DesiredReplicas(d) == 5 }})
	if d.Status.AvailableReplicas != 5 || d.Annotations[model.RevisionAnnotation] != "1" {
		t.Errorf("after scale: %d available at revision %s, want 5 at revision 1", d.Status.AvailableReplicas, d.Annotations[model.RevisionAnnotation])
	}
	for _, n := range []int32{-1} { // above -1 an int32 is what the API accepts
		if err := actions.Scale(ctx, c, target, n); err == nil {
			t.Errorf("scale to %d was accepted", n)
		}
	}
	c.nothingSent(t, "scale to a bad count")
}

// Restart stamps the template with kubectl.kubernetes.io/restartedAt and
// rolls every pod; a paused deployment is refused, as kubectl refuses it.
func testRestart(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.deployment(t, "restart", "e2e.example/app:v1", 2)
	before, err := e.Admin.CoreV1().Pods(target.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := e.counting(t)
	const at = "2026-11-21T09:00:00Z"
	if err := actions.Restart(ctx, c, target, at); err != nil {
		t.Fatal(err)
	}
	c.sentOnly(t, "restart", "PATCH "+deploymentPath(target, ""))
	d := e.rolledOut(t, target, template{"restarted", func(d *appsv1.Deployment) bool {
		return d.Spec.Template.Annotations[model.RestartedAtAnnotation] == at
	}})
	if d.Annotations[model.RevisionAnnotation] != "2" {
		t.Errorf("revision %s after restart, want 2", d.Annotations[model.RevisionAnnotation])
	}
	old := map[string]bool{}
	for _, p := range before.Items {
		old[p.Name] = true
	}
	e.Poll(t, "every pod replaced", func(ctx context.Context) (bool, string, error) {
		now, err := e.Admin.CoreV1().Pods(target.Namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		left := 0
		for _, p := range now.Items {
			if old[p.Name] {
				left++
			}
		}
		return left == 0, fmt.Sprintf("%d pods from before the restart", left), nil
	})

	if err := actions.Pause(ctx, e.Admin, target); err != nil {
		t.Fatal(err)
	}
	if err := actions.Restart(ctx, c, target, "2026-11-21T09:05:00Z"); err == nil || !strings.Contains(err.Error(), "paused") {
		t.Errorf("restart of a paused deployment: %v, want refused", err)
	}
	c.nothingSent(t, "restart of a paused deployment")
}

// Pausing mid-rollout holds it where it is — the ReplicaSets keep their
// sizes even once the controller has seen the new pods ready — and resume
// lets it finish. Pausing twice, or resuming what runs, sends nothing.
func testPauseResume(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.deployment(t, "pause", "e2e.example/slow:v1", 4)
	if err := actions.SetImage(ctx, e.Admin, target, "app", "e2e.example/slow:v2", ""); err != nil {
		t.Fatal(err)
	}
	e.Poll(t, "the new ReplicaSet scaled up", func(ctx context.Context) (bool, string, error) {
		rss, err := e.replicaSets(ctx, target)
		if err != nil {
			return false, "", err
		}
		return rss[2] != nil && model.SpecReplicas(rss[2]) > 0, fmt.Sprintf("%d revisions", len(rss)), nil
	})
	c := e.counting(t)
	if err := actions.Pause(ctx, c, target); err != nil {
		t.Fatal(err)
	}
	c.sentOnly(t, "pause", "PATCH "+deploymentPath(target, ""))
	var held map[int64]int32
	e.Poll(t, "the controller sees the pause", func(ctx context.Context) (bool, string, error) {
		d, err := e.Admin.AppsV1().Deployments(target.Namespace).Get(ctx, target.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		cond := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing)
		seen := d.Status.ObservedGeneration >= d.Generation && cond != nil && cond.Reason == model.ReasonDeploymentPaused
		if seen {
			held, err = e.sizes(ctx, target)
		}
		return seen, fmt.Sprintf("observed generation %d of %d", d.Status.ObservedGeneration, d.Generation), err
	})
	// Once the controller has counted every pod ready, an unpaused
	// rollout would have taken its next step.
	e.Poll(t, "the controller counting the pods it had started ready", func(ctx context.Context) (bool, string, error) {
		d, err := e.Admin.AppsV1().Deployments(target.Namespace).Get(ctx, target.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return d.Status.ObservedGeneration >= d.Generation && d.Status.ReadyReplicas == d.Status.Replicas,
			fmt.Sprintf("%d of %d ready", d.Status.ReadyReplicas, d.Status.Replicas), nil
	})
	now, err := e.sizes(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(now) != fmt.Sprint(held) || now[2] == 4 {
		t.Errorf("the paused rollout moved: sizes %v when the pause was seen, %v after", held, now)
	}
	if err := actions.Pause(ctx, c, target); !errors.Is(err, action.ErrNothingToDo) {
		t.Errorf("pausing twice: %v, want nothing to do", err)
	}
	c.nothingSent(t, "pausing twice")

	if err := actions.Resume(ctx, c, target); err != nil {
		t.Fatal(err)
	}
	c.sentOnly(t, "resume", "PATCH "+deploymentPath(target, ""))
	e.rolledOut(t, target, image("e2e.example/slow:v2"))
	if err := actions.Resume(ctx, c, target); !errors.Is(err, action.ErrNothingToDo) {
		t.Errorf("resuming a running deployment: %v, want nothing to do", err)
	}
	c.nothingSent(t, "resuming a running deployment")
}

// sizes are the deployment's ReplicaSets' spec.replicas by revision.
func (e *env) sizes(ctx context.Context, target actions.Target) (map[int64]int32, error) {
	rss, err := e.replicaSets(ctx, target)
	out := map[int64]int32{}
	for rev, rs := range rss {
		out[rev] = model.SpecReplicas(rs)
	}
	return out, err
}

// Undo --to-revision 1 brings revision 1's template back as a new revision
// (its ReplicaSet renumbered, the old number in its history). A revision
// that is not there, the revision already running and a paused deployment
// are refused as kubectl refuses them, sending nothing.
func testUndo(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.deployment(t, "undo", "e2e.example/app:v1", 2)
	for _, img := range []string{"e2e.example/app:v2", "e2e.example/app:v3"} {
		if err := actions.SetImage(ctx, e.Admin, target, "app", img, ""); err != nil {
			t.Fatal(err)
		}
		e.rolledOut(t, target, image(img))
	}
	rss, err := e.replicaSets(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	one := rss[1]
	c := e.counting(t)
	if _, err := actions.Undo(ctx, c, target, 1); err != nil {
		t.Fatal(err)
	}
	c.sentOnly(t, "undo", "PATCH "+deploymentPath(target, ""))
	d := e.rolledOut(t, target, image("e2e.example/app:v1"))
	if !model.EqualIgnoreHash(&d.Spec.Template, &one.Spec.Template) || d.Annotations[model.RevisionAnnotation] != "4" {
		t.Errorf("after undo: revision %s, template equal to revision 1's %v; want revision 4 and equal",
			d.Annotations[model.RevisionAnnotation], model.EqualIgnoreHash(&d.Spec.Template, &one.Spec.Template))
	}
	if rss, err = e.replicaSets(ctx, target); err != nil {
		t.Fatal(err)
	}
	if rs := rss[4]; rs == nil || rs.UID != one.UID || rs.Annotations[model.RevisionHistoryAnnotation] != "1" {
		t.Errorf("revision 4 is %v, want revision 1's ReplicaSet with revision-history 1", rs)
	}

	if _, err := actions.Undo(ctx, c, target, 9); err == nil || !strings.Contains(err.Error(), "unable to find specified revision 9") {
		t.Errorf("undo to a missing revision: %v", err)
	}
	if _, err := actions.Undo(ctx, c, target, 4); !errors.Is(err, action.ErrNothingToDo) || !strings.Contains(err.Error(), "already at revision 4") {
		t.Errorf("undo to the current revision: %v", err)
	}
	c.nothingSent(t, "refused undos")
	if err := actions.Pause(ctx, e.Admin, target); err != nil {
		t.Fatal(err)
	}
	if _, err := actions.Undo(ctx, c, target, 2); !errors.Is(err, actions.ErrPaused) {
		t.Errorf("undo of a paused deployment: %v, want ErrPaused", err)
	}
	c.nothingSent(t, "undo of a paused deployment")
}

// rollingOut starts a rollout of the slow image v2 and waits until the
// controller has scaled its ReplicaSet up: a rollout under way.
func (e *env) rollingOut(t *testing.T, ns string) actions.Target {
	t.Helper()
	target := e.deployment(t, ns, "e2e.example/slow:v1", 3)
	if err := actions.SetImage(t.Context(), e.Admin, target, "app", "e2e.example/slow:v2", ""); err != nil {
		t.Fatal(err)
	}
	e.Poll(t, "the rollout of revision 2 under way", func(ctx context.Context) (bool, string, error) {
		sizes, err := e.sizes(ctx, target)
		return sizes[2] > 0, fmt.Sprint(sizes), err
	})
	return target
}

// Abort returns an in-flight rollout to the stable ReplicaSet with one
// update at the read resourceVersion, and records what it aborted; a
// finished rollout has nothing to abort.
func testAbort(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.rollingOut(t, "abort")
	c := e.counting(t)
	done, err := actions.Abort(ctx, c, target)
	if err != nil {
		t.Fatal(err)
	}
	if done.String() != "revision 2 aborted, back on revision 1's template, now revision 3" {
		t.Errorf("abort says %q", done)
	}
	// The controller writes the deployment's status all through a
	// rollout, and each write moves its resourceVersion: an update may
	// meet a conflict of its own and be sent again.
	c.sentOnlyAtLeast(t, "abort", "PUT "+deploymentPath(target, ""), 1)
	e.abortedBack(t, target)
	if _, err := actions.Abort(ctx, c, target); !errors.Is(err, action.ErrNothingToDo) {
		t.Errorf("abort of a finished rollout: %v, want nothing to do", err)
	}
	c.nothingSent(t, "abort of a finished rollout")
}

// abortedBack checks that the deployment rolled back to revision 1's
// ReplicaSet, renumbered 3, with the abort recorded.
func (e *env) abortedBack(t *testing.T, target actions.Target) *appsv1.Deployment {
	t.Helper()
	d := e.rolledOut(t, target, image("e2e.example/slow:v1"))
	if a, ok := model.AbortOf(d.Annotations); !ok || a != (model.Abort{Revision: 2, Back: 1}) || d.Annotations[model.AbortedAnnotation] != a.String() {
		t.Errorf("abort annotations %v", d.Annotations)
	}
	if d.Annotations[model.RevisionAnnotation] != "3" {
		t.Errorf("revision %s after the abort, want 3 (the stable ReplicaSet taken back)", d.Annotations[model.RevisionAnnotation])
	}
	sizes, err := e.sizes(t.Context(), target)
	if err != nil {
		t.Fatal(err)
	}
	if sizes[3] != 3 || sizes[2] != 0 {
		t.Errorf("ReplicaSet sizes %v, want 3 on the stable one (revision 3) and none on revision 2", sizes)
	}
	return d
}

// Another writer changes the deployment between the abort's read and its
// write: the API server answers 409 Conflict, the abort reads again and
// succeeds, and the other writer's change (a label: the abort takes the
// stable ReplicaSet's annotations, as kubectl's undo does) is kept.
func testConflictRetry(t *testing.T, e *env) {
	ctx := t.Context()
	target := e.rollingOut(t, "conflict")
	c := e.counting(t)
	var once sync.Once
	c.before = func(method, path string) {
		if method != http.MethodPut {
			return
		}
		once.Do(func() {
			// A patch: it applies whatever the resourceVersion, and
			// moves it, so the abort's update is now out of date.
			body := []byte(`{"metadata":{"labels":{"e2e.example/other-writer":"was-here"}}}`)
			_, err := e.Admin.AppsV1().Deployments(target.Namespace).Patch(ctx, target.Name, types.MergePatchType, body, metav1.PatchOptions{})
			if err != nil {
				t.Errorf("the other writer: %v", err)
			}
		})
	}
	if _, err := actions.Abort(ctx, c, target); err != nil {
		t.Fatal(err)
	}
	c.sentOnlyAtLeast(t, "abort after a conflict", "PUT "+deploymentPath(target, ""), 2)
	d := e.abortedBack(t, target)
	if d.Labels["e2e.example/other-writer"] != "was-here" {
		t.Errorf("the abort overwrote the other writer's change: labels %v", d.Labels)
	}
}
