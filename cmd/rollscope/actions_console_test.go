package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/model/action"
)

// quietCanary is the canary scenario without scripted actions: the test
// drives the rollout from the keys.
const quietCanary = `name: quiet-canary
seed: 7
namespace: default
nodeGroups:
  - {name: nodes, size: 4, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "gcr.io/google-samples/gb-frontend:*", pull: 1s, start: 2s, ready: 3s, jitter: 2s}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: frontend
    annotations:
      kubernetes.io/change-cause: "deploy guestbook frontend v2"
  spec:
    replicas: 6
    minReadySeconds: 5
    selector:
      matchLabels: {app: guestbook}
    strategy:
      type: RollingUpdate
      rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
    template:
      metadata:
        labels: {app: guestbook}
      spec:
        containers:
          - name: php-redis
            image: gcr.io/google-samples/gb-frontend:v2
`

func quietCanaryFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "quiet-canary.yaml")
	if err := os.WriteFile(path, []byte(quietCanary), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// setImage drives the set image dialog to v3 and confirms it.
func (c *tmuxConsole) setImage(image string) {
	c.t.Helper()
	c.keys("i")
	c.waitFor("> gcr.io/google-samples/gb-frontend:v2")
	c.keys("C-u")
	c.keys("-l", image)
	c.keys("Enter")
	c.waitFor("will send the same as")
	// maxSurge 1 / maxUnavailable 0 on 6 replicas: one pod at a time.
	s := c.waitFor("forecast: 12 scaling steps in 6 waves, at most 7 pods, never fewer than 6")
	if !strings.Contains(s, "about ") {
		c.t.Errorf("the forecast has no duration from the observed readiness:\n%s", s)
	}
	c.keys("y")
	c.waitFor("set image php-redis=" + image + ": ok")
}

// The guided canary: set image, pause once the first new pod is available,
// see the rollout held, then resume and watch it finish.
func TestConsoleGuidedCanary(t *testing.T) {
	c := startConsole(t, 120, 40, "--scenario", quietCanaryFile(t), "--speed", "60")
	c.waitFor("successfully rolled out")
	c.setImage("gcr.io/google-samples/gb-frontend:v3")
	// maxSurge 1 / maxUnavailable 0: the second new pod is created only
	// once the first is available.
	c.waitFor("2 out of 6 new replicas have been updated")
	c.keys("p")
	c.waitFor("rollout pause deployment/frontend")
	c.keys("y")
	s := c.waitFor("PAUSED")
	if !strings.Contains(s, "pause: ok") {
		t.Errorf("no result for the pause:\n%s", s)
	}
	held := c.waitFor("DeploymentPaused")
	if strings.Contains(held, "successfully rolled out") {
		t.Fatalf("the paused rollout finished anyway:\n%s", held)
	}
	c.keys("r")
	c.waitFor("rollout resume deployment/frontend")
	c.keys("y")
	c.waitFor("resume: ok")
	s = c.waitFor("successfully rolled out")
	if !strings.Contains(s, "rev 2") {
		t.Errorf("the resumed rollout did not finish on revision 2:\n%s", s)
	}
}

// Interactive rollback: after a rollout to v3, undo from the history
// picker to revision 1 and watch the rollout back to v2 complete.
func TestConsoleInteractiveRollback(t *testing.T) {
	c := startConsole(t, 120, 40, "--scenario", quietCanaryFile(t), "--speed", "60")
	c.waitFor("successfully rolled out")
	c.setImage("gcr.io/google-samples/gb-frontend:v3")
	c.waitFor("rev 2")
	c.waitFor("successfully rolled out")
	c.keys("u")
	s := c.waitFor("undo to which revision?")
	if !strings.Contains(s, "back to revision 1 (gcr.io/google-samples/gb-frontend:v2)") {
		t.Errorf("the picker does not start on revision 1:\n%s", s)
	}
	c.keys("Enter")
	s = c.waitFor("current → revision 1")
	if !strings.Contains(s, "gb-frontend:v2") || !strings.Contains(s, "--to-revision=1") {
		t.Errorf("the preview does not show the change back to v2:\n%s", s)
	}
	c.keys("y")
	c.waitFor("undo to revision 1: ok")
	c.waitFor("rev 3")
	s = c.waitFor("successfully rolled out")
	// The current revision (marked *) is revision 1's template again,
	// change-cause and all.
	current := ""
	for _, line := range strings.Split(s, "\n") {
		if _, after, ok := strings.Cut(line, "│*"); ok {
			current = after
		}
	}
	if !strings.Contains(current, "3") || !strings.Contains(current, "deploy guestbook") {
		t.Errorf("after the undo the current revision is %q, want revision 3 running revision 1's template:\n%s", current, s)
	}
}

func TestConsoleReadOnlySaysSo(t *testing.T) {
	c := startConsole(t, 100, 30, "--scenario", quietCanaryFile(t), "--read-only")
	c.waitFor("READ-ONLY")
	c.keys("p")
	c.waitFor("read-only: rollscope was started with --read-only")
}

// clusterActions refuses bad input before any request is sent.
func TestClusterActionsRefuseBadInputBeforeSending(t *testing.T) {
	replicas := int32(2)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "a:1"}}},
			}},
	}
	base := action.Request{Namespace: "default", Name: "web"}
	with := func(edit func(*action.Request)) action.Request { r := base; edit(&r); return r }
	cases := []struct {
		name string
		req  action.Request
		want string
	}{
		{"empty image", with(func(r *action.Request) { r.Action, r.Container = action.SetImage, "app" }), "the image is empty"},
		{"malformed image", with(func(r *action.Request) { r.Action, r.Container, r.Image = action.SetImage, "app", "a::1" }), "not a valid reference"},
		{"unknown container", with(func(r *action.Request) { r.Action, r.Container, r.Image = action.SetImage, "db", "a:2" }), `no container "db"`},
		{"negative replicas", with(func(r *action.Request) { r.Action, r.Replicas = action.Scale, -1 }), "0 or more"},
		{"huge replicas", with(func(r *action.Request) { r.Action, r.Replicas = action.Scale, 1<<30 }), "more than rollscope will set"},
		{"env name with =", with(func(r *action.Request) { r.Action, r.Container, r.Env = action.SetEnv, "app", "=x" }), "the variable name is empty"},
		{"env name not ASCII", with(func(r *action.Request) { r.Action, r.Container, r.Env = action.SetEnv, "app", "GRÖSSE=1" }), "not a valid environment variable name"},
		{"missing revision", with(func(r *action.Request) { r.Action, r.Revision = action.Undo, 9 }), "unable to find specified revision 9"},
		{"revision 0", with(func(r *action.Request) { r.Action = action.Undo }), "revision 0 does not exist"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewSimpleClientset(d.DeepCopy())
			a := &clusterActions{client: c, record: true, now: time.Now}
			_, err := a.Send(context.Background(), tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			for _, act := range c.Actions() {
				if v := act.GetVerb(); v != "get" && v != "list" {
					t.Fatalf("a refused action sent %s", v)
				}
			}
		})
	}
}

// An engine refusal to do nothing reaches the console as ErrNothingToDo.
func TestClusterActionsNothingToDo(t *testing.T) {
	replicas := int32(1)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Paused: true}}
	a := &clusterActions{client: fake.NewSimpleClientset(d), now: time.Now}
	_, err := a.Send(context.Background(), action.Request{Action: action.Pause, Namespace: "default", Name: "web"})
	if !errors.Is(err, action.ErrNothingToDo) || !strings.Contains(err.Error(), "already paused") {
		t.Fatalf("error %v, want ErrNothingToDo saying already paused", err)
	}
}

// An undo that resumes first and then fails pauses the deployment again:
// a failed action leaves the cluster as it was. A missing revision is
// refused before the resume.
func TestResumeFirstUndoThatFailsPausesAgain(t *testing.T) {
	d, one := undoFixture()
	c := fake.NewSimpleClientset(d, one)
	c.PrependReactor("patch", "deployments", func(act clienttesting.Action) (bool, runtime.Object, error) {
		if act.(clienttesting.PatchAction).GetPatchType() == types.JSONPatchType {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", errors.New("no"))
		}
		return false, nil, nil
	})
	a := &clusterActions{client: c, now: time.Now}
	_, err := a.Send(context.Background(), action.Request{Action: action.Undo, Namespace: "default", Name: "web", Revision: 1, ResumeFirst: true})
	if err == nil || !strings.Contains(err.Error(), "forbidden") || !strings.Contains(err.Error(), "paused it again") {
		t.Fatalf("error %v", err)
	}
	got, err := c.AppsV1().Deployments("default").Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil || !got.Spec.Paused {
		t.Fatalf("after the failed undo the deployment is paused=%v (%v), want paused as before", got.Spec.Paused, err)
	}

	c = fake.NewSimpleClientset(d, one)
	a = &clusterActions{client: c, now: time.Now}
	_, err = a.Send(context.Background(), action.Request{Action: action.Undo, Namespace: "default", Name: "web", Revision: 4, ResumeFirst: true})
	if err == nil || !strings.Contains(err.Error(), "unable to find specified revision 4") {
		t.Fatalf("error %v", err)
	}
	for _, act := range c.Actions() {
		if act.GetVerb() == "patch" {
			t.Fatalf("an undo to a missing revision sent %v", act)
		}
	}
}

// undoFixture is a paused deployment on a:2 with revision 1 (a:1) kept.
func undoFixture() (*appsv1.Deployment, *appsv1.ReplicaSet) {
	replicas := int32(1)
	yes := true
	tpl := func(img string) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: img}}}}
	}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "d"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Paused: true, Template: tpl("a:2"),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	one := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default", UID: "r", Labels: map[string]string{"app": "web"},
			Annotations:     map[string]string{"deployment.kubernetes.io/revision": "1"},
			OwnerReferences: []metav1.OwnerReference{{Kind: "Deployment", Name: "web", UID: "d", Controller: &yes}}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Template: tpl("a:1")},
	}
	return d, one
}
