package memapi_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestPatch(t *testing.T) {
	cases := []struct {
		name        string
		pt          types.PatchType
		patch       string
		subresource string
		check       func(t *testing.T, f *fixture)
		wantErr     func(error) bool
	}{
		{
			name: "JSON patch", pt: types.JSONPatchType,
			patch: `[{"op":"replace","path":"/spec/replicas","value":5},{"op":"add","path":"/metadata/labels","value":{"tier":"web"}}]`,
			check: func(t *testing.T, f *fixture) {
				d := f.deployment(t)
				if *d.Spec.Replicas != 5 || d.Labels["tier"] != "web" || d.Generation != 2 {
					t.Fatalf("replicas %d labels %v generation %d", *d.Spec.Replicas, d.Labels, d.Generation)
				}
			},
		},
		{
			name: "merge patch", pt: types.MergePatchType,
			patch: `{"spec":{"paused":true},"metadata":{"annotations":{"kubernetes.io/change-cause":"pause"}}}`,
			check: func(t *testing.T, f *fixture) {
				d := f.deployment(t)
				if !d.Spec.Paused || d.Annotations["kubernetes.io/change-cause"] != "pause" {
					t.Fatalf("paused %v annotations %v", d.Spec.Paused, d.Annotations)
				}
			},
		},
		{
			name: "strategic merge patch merges containers by name", pt: types.StrategicMergePatchType,
			patch: `{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"MODE","value":"fast"}]}]}}}}`,
			check: func(t *testing.T, f *fixture) {
				c := f.deployment(t).Spec.Template.Spec.Containers
				if len(c) != 1 || c[0].Image != "nginx:1.25" || len(c[0].Env) != 1 || c[0].Env[0].Value != "fast" {
					t.Fatalf("containers after strategic merge: %+v", c)
				}
			},
		},
		{
			name: "status patch", pt: types.MergePatchType, subresource: "status",
			patch: `{"status":{"replicas":3,"observedGeneration":1},"spec":{"replicas":9}}`,
			check: func(t *testing.T, f *fixture) {
				d := f.deployment(t)
				if d.Status.Replicas != 3 || *d.Spec.Replicas != 1 || d.Generation != 1 {
					t.Fatalf("status.replicas %d spec.replicas %d generation %d", d.Status.Replicas, *d.Spec.Replicas, d.Generation)
				}
			},
		},
		{
			name: "patch with the current resourceVersion", pt: types.MergePatchType,
			patch: `{"metadata":{"resourceVersion":"4"},"spec":{"replicas":2}}`,
			check: func(t *testing.T, f *fixture) {
				if d := f.deployment(t); *d.Spec.Replicas != 2 {
					t.Fatalf("replicas %d, want 2", *d.Spec.Replicas)
				}
			},
		},
		{name: "patch with a stale resourceVersion", pt: types.MergePatchType, patch: `{"metadata":{"resourceVersion":"2"},"spec":{"replicas":2}}`, wantErr: apierrors.IsConflict},
		{name: "server-side apply", pt: types.ApplyPatchType, patch: `{}`, wantErr: func(err error) bool {
			return apierrors.ReasonForError(err) == metav1.StatusReasonUnsupportedMediaType
		}},
		{name: "malformed JSON patch", pt: types.JSONPatchType, patch: `{"op":`, wantErr: apierrors.IsBadRequest},
		{name: "failing JSON patch test", pt: types.JSONPatchType, patch: `[{"op":"test","path":"/spec/replicas","value":7}]`, wantErr: apierrors.IsInvalid},
		{name: "renaming by patch", pt: types.MergePatchType, patch: `{"metadata":{"name":"other"}}`, wantErr: apierrors.IsBadRequest},
		{name: "patch that makes the object invalid", pt: types.MergePatchType, patch: `{"spec":{"replicas":-1}}`, wantErr: apierrors.IsInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 1), metav1.CreateOptions{}))(t)
			var sub []string
			if tc.subresource != "" {
				sub = []string{tc.subresource}
			}
			_, err := f.client.AppsV1().Deployments("default").Patch(ctx, "web", tc.pt, []byte(tc.patch), metav1.PatchOptions{}, sub...)
			if tc.wantErr != nil {
				if err == nil || !tc.wantErr(err) {
					t.Fatalf("got error %v", err)
				}
				if f.deployment(t).ResourceVersion != "4" {
					t.Fatal("a refused patch changed the object")
				}
				return
			}
			noErr(t, err)
			tc.check(t, f)
		})
	}
	t.Run("missing object", func(t *testing.T) {
		f := newFixture(t)
		_, err := f.client.CoreV1().Pods("default").Patch(ctx, "nope", types.MergePatchType, []byte(`{}`), metav1.PatchOptions{})
		if !apierrors.IsNotFound(err) {
			t.Fatalf("got %v, want NotFound", err)
		}
	})
}

func (f *fixture) deployment(t *testing.T) *appsv1.Deployment {
	t.Helper()
	return must(f.client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{}))(t)
}

func TestScaleSubresource(t *testing.T) {
	f := newFixture(t)
	deps := f.client.AppsV1().Deployments("default")
	d := must(deps.Create(ctx, deployment("web", 3), metav1.CreateOptions{}))(t)

	s := must(deps.GetScale(ctx, "web", metav1.GetOptions{}))(t)
	if s.Spec.Replicas != 3 || s.Status.Selector != "app=web" || s.ResourceVersion != d.ResourceVersion || s.UID != d.UID {
		t.Fatalf("scale %+v", s)
	}
	s.Spec.Replicas = 7
	s = must(deps.UpdateScale(ctx, "web", s, metav1.UpdateOptions{}))(t)
	d = must(deps.Get(ctx, "web", metav1.GetOptions{}))(t)
	if s.Spec.Replicas != 7 || *d.Spec.Replicas != 7 || d.Generation != 2 || s.ResourceVersion != d.ResourceVersion {
		t.Fatalf("after UpdateScale: scale %d, deployment %d generation %d", s.Spec.Replicas, *d.Spec.Replicas, d.Generation)
	}

	stale := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "4"}, Spec: autoscalingv1.ScaleSpec{Replicas: 1}}
	if _, err := deps.UpdateScale(ctx, "web", stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Fatalf("stale scale update: got %v, want Conflict", err)
	}
	negative := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: autoscalingv1.ScaleSpec{Replicas: -1}}
	_, err := deps.UpdateScale(ctx, "web", negative, metav1.UpdateOptions{})
	if want := `Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`; err == nil || err.Error() != want {
		t.Fatalf("negative scale: got %v, want %s", err, want)
	}

	must(deps.Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"replicas":2}}`), metav1.PatchOptions{}, "scale"))(t)
	if d = must(deps.Get(ctx, "web", metav1.GetOptions{}))(t); *d.Spec.Replicas != 2 {
		t.Fatalf("scale patch: replicas %d, want 2", *d.Spec.Replicas)
	}

	rs := must(f.client.AppsV1().ReplicaSets("default").Create(ctx, replicaSet("rs", 1), metav1.CreateOptions{}))(t)
	rsScale := must(f.client.AppsV1().ReplicaSets("default").GetScale(ctx, rs.Name, metav1.GetOptions{}))(t)
	if rsScale.Spec.Replicas != 1 || rsScale.Status.Selector != "app=rs" {
		t.Fatalf("replica set scale %+v", rsScale)
	}

	rc := &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: "rc"},
		Spec:       corev1.ReplicationControllerSpec{Replicas: ptr[int32](2), Template: ptr(podTemplate("rc", "nginx:1"))},
	}
	must(f.client.CoreV1().ReplicationControllers("default").Create(ctx, rc, metav1.CreateOptions{}))(t)
	rcScale := must(f.client.CoreV1().ReplicationControllers("default").GetScale(ctx, "rc", metav1.GetOptions{}))(t)
	rcScale.Spec.Replicas = 0
	rcScale = must(f.client.CoreV1().ReplicationControllers("default").UpdateScale(ctx, "rc", rcScale, metav1.UpdateOptions{}))(t)
	if rcScale.Spec.Replicas != 0 || rcScale.Status.Selector != "app=rc" {
		t.Fatalf("replication controller scale %+v", rcScale)
	}
}

func TestBinding(t *testing.T) {
	f := newFixture(t)
	pods := f.client.CoreV1().Pods("default")
	must(pods.Create(ctx, pod("p", "a"), metav1.CreateOptions{}))(t)
	f.clock.Step(3e9)
	bind := func(node string) error {
		return pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}, Target: corev1.ObjectReference{Kind: "Node", Name: node}}, metav1.CreateOptions{})
	}
	noErr(t, bind("node-1"))
	p := must(pods.Get(ctx, "p", metav1.GetOptions{}))(t)
	if p.Spec.NodeName != "node-1" || len(p.Status.Conditions) != 1 {
		t.Fatalf("bound pod: node %q conditions %+v", p.Spec.NodeName, p.Status.Conditions)
	}
	c := p.Status.Conditions[0]
	if c.Type != corev1.PodScheduled || c.Status != corev1.ConditionTrue || !c.LastTransitionTime.Time.Equal(epoch.Add(3e9)) {
		t.Fatalf("PodScheduled condition %+v", c)
	}

	err := bind("node-2")
	if want := `Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-1"`; !apierrors.IsConflict(err) || err.Error() != want {
		t.Fatalf("rebind: got %v, want %s", err, want)
	}
	if err := pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "nope", Namespace: "default"}, Target: corev1.ObjectReference{Name: "n"}}, metav1.CreateOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("binding a missing pod: %v", err)
	}
	if err := pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}}, metav1.CreateOptions{}); err == nil || err.Error() != `Binding "p" is invalid: target.name: Required value` {
		t.Fatalf("binding without a target: %v", err)
	}
}
