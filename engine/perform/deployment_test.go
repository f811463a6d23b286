package perform_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/engine/actions"
	"rollscope/engine/perform"
	"rollscope/model/action"
)

// Send refuses bad input before any request is sent, in the words the
// dialogs show.
func TestSendRefusesBadInputBeforeSending(t *testing.T) {
	base := action.Request{Namespace: "default", Name: "web"}
	with := func(edit func(*action.Request)) action.Request { r := base; edit(&r); return r }
	cases := []struct {
		name string
		req  action.Request
		want string
	}{
		{"no container", with(func(r *action.Request) { r.Action, r.Image = action.SetImage, "a:2" }), "pick a container first"},
		{"empty image", with(func(r *action.Request) { r.Action, r.Container = action.SetImage, "app" }), "the image is empty"},
		{"malformed image", with(func(r *action.Request) { r.Action, r.Container, r.Image = action.SetImage, "app", "a::1" }), "not a valid reference"},
		{"unknown container", with(func(r *action.Request) { r.Action, r.Container, r.Image = action.SetImage, "db", "a:2" }), `no container "db"`},
		{"negative replicas", with(func(r *action.Request) { r.Action, r.Replicas = action.Scale, -1 }), "0 or more"},
		{"env without =", with(func(r *action.Request) { r.Action, r.Container, r.Env = action.SetEnv, "app", "X" }), "write NAME=value"},
		{"env name with =", with(func(r *action.Request) { r.Action, r.Container, r.Env = action.SetEnv, "app", "=x" }), "the variable name is empty"},
		{"env name not ASCII", with(func(r *action.Request) { r.Action, r.Container, r.Env = action.SetEnv, "app", "GRÖSSE=1" }), "not a valid key name"},
		{"env name kubectl refuses", with(func(r *action.Request) { r.Action, r.Container, r.Env = action.SetEnv, "app", "BAD NAME=1" }), `"BAD NAME" is not a valid key name`},
		{"missing revision", with(func(r *action.Request) { r.Action, r.Revision = action.Undo, 9 }), "unable to find specified revision 9"},
		{"revision 0", with(func(r *action.Request) { r.Action = action.Undo }), "revision 0 does not exist — revisions are 1 or more"},
		{"unknown action", with(func(r *action.Request) { r.Action = "rollback" }), `rollscope has no action "rollback" — use one of set-image,`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewClientset(web())
			_, err := perform.New(perform.Config{Client: c, Record: true}).Send(context.Background(), tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			for _, act := range c.Actions() {
				if v := act.GetVerb(); v != "get" && v != "list" {
					t.Fatalf("a refused request sent %s", v)
				}
			}
		})
	}
}

// set image records its command in kubernetes.io/change-cause with
// Record, and leaves the annotation alone without it; restart stamps the
// cluster's time.
func TestSendChangesTheDeploymentAsKubectlWould(t *testing.T) {
	ctx := context.Background()
	for _, record := range []bool{true, false} {
		c, clock := memCluster(t, web())
		p := perform.New(perform.Config{Client: c, Now: clock.Now, Record: record})
		got, err := p.Send(ctx, action.Request{Action: action.SetImage, Namespace: "default", Name: "web", Container: "app", Image: "a:2"})
		if err != nil || got != "ok" {
			t.Fatalf("set image: %q, %v", got, err)
		}
		if _, err := p.Send(ctx, action.Request{Action: action.Restart, Namespace: "default", Name: "web"}); err != nil {
			t.Fatal(err)
		}
		d, err := c.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cause, want := d.Annotations["kubernetes.io/change-cause"], ""
		if record {
			want = action.ChangeCause("web", "app", "a:2")
		}
		if d.Spec.Template.Spec.Containers[0].Image != "a:2" || cause != want {
			t.Errorf("record=%v: image %s, change-cause %q; want a:2 and %q", record, d.Spec.Template.Spec.Containers[0].Image, cause, want)
		}
		if got := d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]; got != epoch.Format(time.RFC3339) {
			t.Errorf("restartedAt %q, want the cluster's time %s", got, epoch.Format(time.RFC3339))
		}
	}
}

// An engine refusal to do nothing comes back as action.ErrNothingToDo,
// with the engine's words.
func TestSendNothingToDo(t *testing.T) {
	d := web()
	d.Spec.Paused = true
	c, _ := memCluster(t, d)
	_, err := perform.New(perform.Config{Client: c}).Send(context.Background(), action.Request{Action: action.Pause, Namespace: "default", Name: "web"})
	if !errors.Is(err, action.ErrNothingToDo) || !strings.Contains(err.Error(), "already paused") {
		t.Fatalf("error %v, want ErrNothingToDo saying already paused", err)
	}
}

// An undo that resumes first and then fails pauses the deployment again:
// a failed action leaves the cluster as it was. A missing revision is
// refused before the resume.
func TestResumeFirstUndoThatFailsPausesAgain(t *testing.T) {
	d, one := undoFixture()
	c := fake.NewClientset(d, one)
	c.PrependReactor("patch", "deployments", func(act clienttesting.Action) (bool, runtime.Object, error) {
		if act.(clienttesting.PatchAction).GetPatchType() == types.JSONPatchType {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", errors.New("no"))
		}
		return false, nil, nil
	})
	ctx := context.Background()
	undo := action.Request{Action: action.Undo, Namespace: "default", Name: "web", Revision: 1, ResumeFirst: true}
	_, err := perform.New(perform.Config{Client: c}).Send(ctx, undo)
	if err == nil || !strings.Contains(err.Error(), "forbidden") || !strings.Contains(err.Error(), "paused it again") {
		t.Fatalf("error %v", err)
	}
	got, err := c.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || !got.Spec.Paused {
		t.Fatalf("after the failed undo the deployment is paused=%v (%v), want paused as before", got.Spec.Paused, err)
	}

	c = fake.NewClientset(d, one)
	undo.Revision = 4
	_, err = perform.New(perform.Config{Client: c}).Send(ctx, undo)
	if err == nil || !strings.Contains(err.Error(), "unable to find specified revision 4") {
		t.Fatalf("error %v", err)
	}
	for _, act := range c.Actions() {
		if act.GetVerb() == "patch" {
			t.Fatalf("an undo to a missing revision sent %v", act)
		}
	}
}

// A script's undo to revision 0 goes back to the previous revision, as
// kubectl's does: the scripts' Send skips the dialog's check and the
// engine answers (here: the deployment is paused).
func TestScriptedSendLeavesTheChecksToTheEngine(t *testing.T) {
	d, one := undoFixture()
	c := fake.NewClientset(d, one, revision(d, 2, "a:2"))
	_, err := perform.Send(context.Background(), c, nil, action.Request{Action: action.Undo, Namespace: "default", Name: "web"})
	if !errors.Is(err, actions.ErrPaused) {
		t.Fatalf("scripted undo to revision 0 of a paused deployment: %v, want the engine's refusal to roll back a paused one", err)
	}
}

// The set image and set env dialogs offer the containers as they are, and
// undo's confirmation shows the template change.
func TestContainersAndUndoPreviewReadTheDeployment(t *testing.T) {
	d, one := undoFixture()
	d.Spec.Template.Spec.Containers[0].Env = append(d.Spec.Template.Spec.Containers[0].Env,
		corev1.EnvVar{Name: "LOG", Value: "info"},
		corev1.EnvVar{Name: "TOKEN", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{Key: "token"}}})
	p := perform.New(perform.Config{Client: fake.NewClientset(d, one)})
	ctx := context.Background()
	cs, err := p.Containers(ctx, "default", "web")
	if err != nil || len(cs) != 1 || cs[0].Name != "app" || cs[0].Image != "a:2" || strings.Join(cs[0].Env, ",") != "LOG=info,TOKEN=(from a reference)" {
		t.Errorf("containers %+v, %v", cs, err)
	}
	diff, err := p.UndoPreview(ctx, "default", "web", 1)
	back := false
	for _, l := range diff {
		back = back || l.Op == '+' && strings.TrimSpace(l.Text) == "image: a:1"
	}
	if err != nil || !back {
		t.Errorf("undo preview %+v, %v: want the revision's image brought back", diff, err)
	}
	if _, err := p.Containers(ctx, "default", "gone"); err == nil || !strings.Contains(err.Error(), "cannot read deployment/gone") {
		t.Errorf("containers of a missing deployment: %v", err)
	}
}
