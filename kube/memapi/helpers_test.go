package memapi_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	clocktesting "k8s.io/utils/clock/testing"

	"rollscope/kube/memapi"
)

var ctx = context.Background()

// epoch is the fake clock's start; whole seconds, like stored timestamps.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

type fixture struct {
	cluster *memapi.Cluster
	client  kubernetes.Interface
	clock   *clocktesting.FakeClock
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	clk := clocktesting.NewFakeClock(epoch)
	c := memapi.New(memapi.Options{Clock: clk, Seed: 7})
	return &fixture{cluster: c, client: c.Client(), clock: clk}
}

func labelsOf(app string) map[string]string { return map[string]string{"app": app} }

func podTemplate(app, image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labelsOf(app)},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: app, Image: image}}},
	}
}

func deployment(name string, replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labelsOf(name)},
			Template: podTemplate(name, "nginx:1.25"),
		},
	}
}

func replicaSet(name string, replicas int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labelsOf(name)},
			Template: podTemplate(name, "nginx:1.25"),
		},
	}
}

func pod(name, app string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: labelsOf(app)},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.25"}}},
	}
}

func budget(name, app string, minAvailable int) *policyv1.PodDisruptionBudget {
	v := intstr.FromInt(minAvailable)
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &v, Selector: &metav1.LabelSelector{MatchLabels: labelsOf(app)}},
	}
}

func ownedBy(owner metav1.Object, kind string) []metav1.OwnerReference {
	yes := true
	return []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: owner.GetName(), UID: owner.GetUID(), Controller: &yes}}
}

// must checks the error of a call: must(client.Create(...))(t).
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// runningPod creates a pod bound to a node and reported Running and Ready
// (or not) by a kubelet status write.
func (f *fixture) runningPod(t testing.TB, name, app, node string, ready bool) *corev1.Pod {
	t.Helper()
	must(f.client.CoreV1().Pods("default").Create(ctx, pod(name, app), metav1.CreateOptions{}))(t)
	if node != "" {
		noErr(t, f.client.CoreV1().Pods("default").Bind(ctx, &corev1.Binding{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Target: corev1.ObjectReference{Kind: "Node", Name: node},
		}, metav1.CreateOptions{}))
	}
	p := must(f.client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{}))(t)
	p.Status.Phase = corev1.PodRunning
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: status})
	return must(f.client.CoreV1().Pods("default").UpdateStatus(ctx, p, metav1.UpdateOptions{}))(t)
}

func ptr[T any](v T) *T { return &v }

func intOrStr(v int) intstr.IntOrString { return intstr.FromInt(v) }

func resources(cpu, memory string) corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory)}
}
