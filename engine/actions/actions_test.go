package actions

import (
	"context"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/model"
	"rollscope/model/action"
)

var ctx = context.Background()

func deployment(paused bool, image string) *appsv1.Deployment {
	replicas := int32(3)
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "d-uid",
			Annotations: map[string]string{model.RevisionAnnotation: "2"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Paused:   paused,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: template(image),
		},
	}
}

func withEnv(d *appsv1.Deployment, name, value string) *appsv1.Deployment {
	d.Spec.Template.Spec.Containers[0].Env = append(d.Spec.Template.Spec.Containers[0].Env, corev1.EnvVar{Name: name, Value: value})
	return d
}

// Removing a variable that is not set, or setting one to the value it
// has, would not change the template: nothing is sent, and it says so.
func TestSetEnvThatChangesNothingSendsNothing(t *testing.T) {
	ctx := context.Background()
	target := Target{Namespace: "default", Name: "web"}
	for _, tc := range []struct {
		name   string
		d      *appsv1.Deployment
		value  string
		remove bool
		want   string
	}{
		{"remove unset", deployment(false, "a:1"), "", true, "LOG is not set in container app"},
		{"same value", withEnv(deployment(false, "a:1"), "LOG", "info"), "info", false, `LOG is already "info" in container app`},
	} {
		c := fake.NewSimpleClientset(tc.d)
		err := SetEnv(ctx, c, target, "app", "LOG", tc.value, tc.remove)
		if !errors.Is(err, action.ErrNothingToDo) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
		for _, a := range c.Actions() {
			if a.GetVerb() == "patch" {
				t.Errorf("%s: sent a patch", tc.name)
			}
		}
	}
}

func template(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}},
	}
}

func replicaSet(name string, revision, image string) *appsv1.ReplicaSet {
	yes := true
	t := template(image)
	t.Labels = map[string]string{"app": "web", model.PodTemplateHashLabel: name}
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-" + name, Namespace: "default",
			Labels:          map[string]string{"app": "web", model.PodTemplateHashLabel: name},
			Annotations:     map[string]string{model.RevisionAnnotation: revision, model.ChangeCauseAnnotation: "rev " + revision},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "d-uid", Controller: &yes}},
		},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: t.Labels}, Template: t},
	}
}

var target = Target{Namespace: "default", Name: "web"}

// writes returns the requests that would change the cluster.
func writes(c *fake.Clientset) []clienttesting.Action {
	var out []clienttesting.Action
	for _, a := range c.Actions() {
		if v := a.GetVerb(); v != "get" && v != "list" && v != "watch" {
			out = append(out, a)
		}
	}
	return out
}

func onePatch(t *testing.T, c *fake.Clientset) clienttesting.PatchAction {
	t.Helper()
	w := writes(c)
	if len(w) != 1 {
		t.Fatalf("want exactly one write, got %d: %v", len(w), w)
	}
	p, ok := w[0].(clienttesting.PatchAction)
	if !ok {
		t.Fatalf("want a patch, got %s", w[0].GetVerb())
	}
	return p
}

// Each action sends what the matching kubectl command sends.
func TestActionsSendWhatKubectlSends(t *testing.T) {
	cases := []struct {
		name      string
		objects   []runtime.Object
		do        func(*fake.Clientset) error
		patchType types.PatchType
		sub       string
		body      string
	}{
		{"set image with change-cause", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error {
				return SetImage(ctx, c, target, "app", "a:2", "rollscope set image deployment/web app=a:2")
			},
			types.StrategicMergePatchType, "",
			`{"metadata":{"annotations":{"kubernetes.io/change-cause":"rollscope set image deployment/web app=a:2"}},"spec":{"template":{"spec":{"containers":[{"image":"a:2","name":"app"}]}}}}`},
		{"set image without recording", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return SetImage(ctx, c, target, "app", "a:2", "") },
			types.StrategicMergePatchType, "",
			`{"spec":{"template":{"spec":{"containers":[{"image":"a:2","name":"app"}]}}}}`},
		{"set env", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return SetEnv(ctx, c, target, "app", "LOG", "debug", false) },
			types.StrategicMergePatchType, "",
			`{"spec":{"template":{"spec":{"containers":[{"env":[{"name":"LOG","value":"debug"}],"name":"app"}]}}}}`},
		{"remove env", []runtime.Object{withEnv(deployment(false, "a:1"), "LOG", "info")},
			func(c *fake.Clientset) error { return SetEnv(ctx, c, target, "app", "LOG", "", true) },
			types.StrategicMergePatchType, "",
			`{"spec":{"template":{"spec":{"containers":[{"env":[{"$patch":"delete","name":"LOG"}],"name":"app"}]}}}}`},
		{"scale", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return Scale(ctx, c, target, 7) },
			types.MergePatchType, "scale", `{"spec":{"replicas":7}}`},
		{"pause", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return Pause(ctx, c, target) },
			types.StrategicMergePatchType, "", `{"spec":{"paused":true}}`},
		{"resume", []runtime.Object{deployment(true, "a:1")},
			func(c *fake.Clientset) error { return Resume(ctx, c, target) },
			types.StrategicMergePatchType, "", `{"spec":{"paused":null}}`},
		{"restart", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return Restart(ctx, c, target, "2026-01-01T00:00:00Z") },
			types.StrategicMergePatchType, "",
			`{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-01-01T00:00:00Z"}}}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewSimpleClientset(tc.objects...)
			if err := tc.do(c); err != nil {
				t.Fatal(err)
			}
			p := onePatch(t, c)
			if p.GetPatchType() != tc.patchType || p.GetSubresource() != tc.sub || string(p.GetPatch()) != tc.body {
				t.Fatalf("sent %s %q on %q, want %s %q on %q", p.GetPatchType(), p.GetPatch(), p.GetSubresource(), tc.patchType, tc.body, tc.sub)
			}
		})
	}
}

func TestUndoSendsKubectlsJSONPatch(t *testing.T) {
	c := fake.NewSimpleClientset(deployment(false, "a:2"), replicaSet("one", "1", "a:1"), replicaSet("two", "2", "a:2"))
	done, err := Undo(ctx, c, target, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Revision 1's template comes back as revision 3, after the newest.
	if done.String() != "back on revision 1's template, now revision 3" {
		t.Errorf("undo says %q", done)
	}
	p := onePatch(t, c)
	if p.GetPatchType() != types.JSONPatchType {
		t.Fatalf("undo sent a %s patch, want a JSON patch", p.GetPatchType())
	}
	body := string(p.GetPatch())
	for _, want := range []string{`"op":"replace","path":"/spec/template"`, `"image":"a:1"`, `"path":"/metadata/annotations"`, `"kubernetes.io/change-cause":"rev 1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("undo patch %s lacks %s", body, want)
		}
	}
	if strings.Contains(body, model.PodTemplateHashLabel) {
		t.Errorf("undo patch %s restores the pod-template-hash label; kubectl strips it", body)
	}
	d, err := c.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "a:1" {
		t.Fatalf("after undo the template runs %s, want a:1", img)
	}
}

// Refusals are decided before anything is sent.
func TestRefusalsSendNothing(t *testing.T) {
	cases := []struct {
		name    string
		objects []runtime.Object
		do      func(*fake.Clientset) error
		want    string
		nothing bool // ErrNothingToDo rather than a failure
	}{
		{"unknown container", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return SetImage(ctx, c, target, "db", "a:2", "") }, `no container "db" (containers: app)`, false},
		{"negative replicas", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return Scale(ctx, c, target, -1) }, "replicas must be 0 or more", false},
		{"already paused", []runtime.Object{deployment(true, "a:1")},
			func(c *fake.Clientset) error { return Pause(ctx, c, target) }, "already paused", true},
		{"not paused", []runtime.Object{deployment(false, "a:1")},
			func(c *fake.Clientset) error { return Resume(ctx, c, target) }, "is not paused", true},
		{"restart while paused", []runtime.Object{deployment(true, "a:1")},
			func(c *fake.Clientset) error { return Restart(ctx, c, target, "now") }, "resume it first", false},
		{"undo while paused", []runtime.Object{deployment(true, "a:2"), replicaSet("one", "1", "a:1")},
			func(c *fake.Clientset) error { _, err := Undo(ctx, c, target, 1); return err }, "is paused — resume it first (r)", false},
		{"undo to the current template", []runtime.Object{deployment(false, "a:2"), replicaSet("one", "1", "a:1"), replicaSet("two", "2", "a:2")},
			func(c *fake.Clientset) error { _, err := Undo(ctx, c, target, 2); return err }, "already at revision 2", true},
		{"undo to a missing revision", []runtime.Object{deployment(false, "a:2"), replicaSet("two", "2", "a:2")},
			func(c *fake.Clientset) error { _, err := Undo(ctx, c, target, 9); return err }, "unable to find specified revision 9", false},
		{"undo to a negative revision", []runtime.Object{deployment(false, "a:2")},
			func(c *fake.Clientset) error { _, err := Undo(ctx, c, target, -1); return err }, "revision -1 does not exist", false},
		{"unknown deployment", nil,
			func(c *fake.Clientset) error { return Pause(ctx, c, target) }, `deployment "web" not found in namespace "default"`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewSimpleClientset(tc.objects...)
			err := tc.do(c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if errors.Is(err, action.ErrNothingToDo) != tc.nothing {
				t.Fatalf("errors.Is(err, action.ErrNothingToDo) = %v, want %v", !tc.nothing, tc.nothing)
			}
			if w := writes(c); len(w) != 0 {
				t.Fatalf("a refused action sent %d writes: %v", len(w), w)
			}
		})
	}
}
