package watch

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// bulkyMeta is metadata as a real server returns it after kubectl apply.
func bulkyMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:          name,
		Namespace:     "default",
		Annotations:   map[string]string{lastApplied: `{"kind":"whole manifest"}`, "deployment.kubernetes.io/revision": "3"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}},
	}
}

func configuredSpec() corev1.PodSpec {
	return corev1.PodSpec{
		Volumes: []corev1.Volume{{Name: "data"}},
		InitContainers: []corev1.Container{{Name: "init", Image: "busybox",
			Env: []corev1.EnvVar{{Name: "A", Value: "1"}}}},
		Containers: []corev1.Container{{Name: "web", Image: "nginx:1.25",
			Env:            []corev1.EnvVar{{Name: "MODE", Value: "prod"}},
			EnvFrom:        []corev1.EnvFromSource{{Prefix: "X"}},
			VolumeMounts:   []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
			LivenessProbe:  &corev1.Probe{},
			ReadinessProbe: &corev1.Probe{},
			StartupProbe:   &corev1.Probe{},
			Lifecycle:      &corev1.Lifecycle{},
		}},
	}
}

func TestTrimDropsManagedFieldsAndLastAppliedFromEveryKind(t *testing.T) {
	for _, obj := range []runtime.Object{
		&appsv1.Deployment{ObjectMeta: bulkyMeta("d")},
		&appsv1.ReplicaSet{ObjectMeta: bulkyMeta("rs")},
		&corev1.ReplicationController{ObjectMeta: bulkyMeta("rc")},
		&corev1.Pod{ObjectMeta: bulkyMeta("p")},
		&corev1.Node{ObjectMeta: bulkyMeta("n")},
		&corev1.Event{ObjectMeta: bulkyMeta("e")},
		&policyv1.PodDisruptionBudget{ObjectMeta: bulkyMeta("pdb")},
	} {
		t.Run(fmt.Sprintf("%T", obj), func(t *testing.T) {
			out, err := trim(obj)
			if err != nil {
				t.Fatal(err)
			}
			m := out.(metav1.Object)
			if m.GetManagedFields() != nil {
				t.Error("managedFields kept")
			}
			if _, ok := m.GetAnnotations()[lastApplied]; ok {
				t.Error("last-applied configuration kept")
			}
			// Pods and events keep no annotation: model reads none of theirs.
			_, slim := obj.(*corev1.Pod)
			if _, ok := obj.(*corev1.Event); ok {
				slim = true
			}
			if !slim && m.GetAnnotations()["deployment.kubernetes.io/revision"] != "3" {
				t.Error("an annotation the console shows was dropped")
			}
		})
	}
}

func TestTrimStripsPodsButKeepsTemplates(t *testing.T) {
	p := &corev1.Pod{ObjectMeta: bulkyMeta("p"), Spec: configuredSpec()}
	p.Spec.NodeName = "node-1"
	out, err := trim(p)
	if err != nil {
		t.Fatal(err)
	}
	p = out.(*corev1.Pod)
	c, init := p.Spec.Containers[0], p.Spec.InitContainers[0]
	if p.Spec.Volumes != nil || c.Env != nil || c.EnvFrom != nil || c.VolumeMounts != nil ||
		c.LivenessProbe != nil || c.ReadinessProbe != nil || c.StartupProbe != nil || c.Lifecycle != nil || init.Env != nil {
		t.Errorf("pod keeps configuration the console never shows: %+v", p.Spec)
	}
	if c.Name != "web" || c.Image != "nginx:1.25" || init.Image != "busybox" || p.Spec.NodeName != "node-1" {
		t.Errorf("pod lost what its row shows: %+v", p.Spec)
	}

	// Template diffs between revisions show env changes: templates stay whole.
	d := &appsv1.Deployment{ObjectMeta: bulkyMeta("d"), Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: configuredSpec()}}}
	rs := &appsv1.ReplicaSet{ObjectMeta: bulkyMeta("rs"), Spec: appsv1.ReplicaSetSpec{Template: corev1.PodTemplateSpec{Spec: configuredSpec()}}}
	for _, obj := range []runtime.Object{d, rs} {
		if _, err := trim(obj); err != nil {
			t.Fatal(err)
		}
	}
	if d.Spec.Template.Spec.Containers[0].Env == nil || rs.Spec.Template.Spec.Volumes == nil {
		t.Error("a template was trimmed")
	}
}

func TestTrimDropsNodeImages(t *testing.T) {
	n := &corev1.Node{Status: corev1.NodeStatus{
		Images:     []corev1.ContainerImage{{Names: []string{"nginx:1.25"}, SizeBytes: 1 << 20}},
		Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
	}}
	if _, err := trim(n); err != nil {
		t.Fatal(err)
	}
	if n.Status.Images != nil || len(n.Status.Conditions) != 1 {
		t.Errorf("node status = %+v, want images dropped and conditions kept", n.Status)
	}
}

func TestTrimLeavesOtherValuesAlone(t *testing.T) {
	for _, in := range []any{nil, "text", 42} {
		out, err := trim(in)
		if err != nil || out != in {
			t.Errorf("trim(%v) = %v, %v; want it unchanged", in, out, err)
		}
	}
}

func TestDescribeSaysWhatFailed(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}, "connection refused"},
		{fmt.Errorf("list: %w", io.ErrUnexpectedEOF), "connection closed"},
		{apierrors.NewForbidden(schema.GroupResource{Resource: "nodes"}, "", errors.New("no RBAC")), "nodes is forbidden: no RBAC"},
		{errors.New("something odd"), "something odd"},
	}
	for _, c := range cases {
		if got := describe(c.err); got != c.want {
			t.Errorf("describe(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

func TestRoutineWatchEndsAreNotFailures(t *testing.T) {
	for _, err := range []error{io.EOF, apierrors.NewResourceExpired("too old resource version"), apierrors.NewGone("gone")} {
		if !routineWatchEnd(err) {
			t.Errorf("%v counted as a failure", err)
		}
	}
	if routineWatchEnd(errors.New("connection refused")) {
		t.Error("a refused connection counted as routine")
	}
}
