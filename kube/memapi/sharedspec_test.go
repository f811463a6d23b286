package memapi_test

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// Pods of one controller made from one template hold one copy of its
// containers, tolerations and labels in the store, and each still reads back
// exactly as it was created; a pod whose containers differ (a new template,
// a quantity written otherwise) keeps its own.
func TestPodsOfOneTemplateShareTheirSpec(t *testing.T) {
	f := newFixture(t)
	rs := must(f.client.AppsV1().ReplicaSets("default").Create(ctx, replicaSet("web", 3), metav1.CreateOptions{}))(t)
	stored := map[string]*corev1.Pod{}
	cancel := f.cluster.Subscribe(func(ev watch.Event) {
		if p, ok := ev.Object.(*corev1.Pod); ok && ev.Type == watch.Added {
			stored[p.Name] = p
		}
	})
	defer cancel()
	mk := func(name, image, cpu string) *corev1.Pod {
		p := pod(name, "web")
		p.OwnerReferences = ownedBy(rs, "ReplicaSet")
		p.Spec.Containers[0].Image = image
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
		return p
	}
	want := map[string]*corev1.Pod{
		"a": mk("a", "nginx:1.25", "1"),
		"b": mk("b", "nginx:1.25", "1"),
		"c": mk("c", "nginx:1.25", "1000m"), // the same amount, written otherwise
		"d": mk("d", "nginx:1.26", "1"),
		"e": mk("e", "nginx:1.26", "1"),
	}
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		must(f.client.CoreV1().Pods("default").Create(ctx, want[name], metav1.CreateOptions{}))(t)
	}
	same := func(x, y string) bool {
		return &stored[x].Spec.Containers[0] == &stored[y].Spec.Containers[0]
	}
	if !same("a", "b") || !same("d", "e") {
		t.Errorf("pods made from one template each hold their own containers")
	}
	if reflect.ValueOf(stored["a"].Labels).UnsafePointer() != reflect.ValueOf(stored["b"].Labels).UnsafePointer() {
		t.Errorf("pods with the same labels each hold their own map")
	}
	if same("a", "c") || same("c", "d") {
		t.Errorf("pods whose containers differ share them")
	}
	// Their defaults too: priority (admission), grace period and security
	// context (defaulting) are one value each, read back the same.
	a, b := stored["a"].Spec, stored["b"].Spec
	if a.Priority == nil || a.Priority != b.Priority || a.PreemptionPolicy != b.PreemptionPolicy ||
		a.TerminationGracePeriodSeconds == nil || a.TerminationGracePeriodSeconds != b.TerminationGracePeriodSeconds ||
		a.SecurityContext == nil || a.SecurityContext != b.SecurityContext || a.EnableServiceLinks != b.EnableServiceLinks {
		t.Errorf("pods made from one template each hold their own defaults")
	}
	if &stored["a"].OwnerReferences[0] != &stored["e"].OwnerReferences[0] {
		t.Errorf("pods of one controller each hold their own owner references")
	}
	for name, w := range want {
		got := must(f.client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{}))(t)
		if got.Spec.Containers[0].Image != w.Spec.Containers[0].Image {
			t.Errorf("pod %s reads back image %s, created with %s", name, got.Spec.Containers[0].Image, w.Spec.Containers[0].Image)
		}
		q := got.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]
		wq := w.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]
		if q.String() != wq.String() {
			t.Errorf("pod %s reads back cpu %s, created with %s", name, q.String(), wq.String())
		}
		if ref := metav1.GetControllerOf(got); ref == nil || ref.UID != rs.UID || ref.Name != "web" {
			t.Errorf("pod %s reads back controller %v, created with ReplicaSet web (%s)", name, ref, rs.UID)
		}
		if got.Spec.Priority == nil || *got.Spec.Priority != 0 || got.Spec.TerminationGracePeriodSeconds == nil || *got.Spec.TerminationGracePeriodSeconds != corev1.DefaultTerminationGracePeriodSeconds {
			t.Errorf("pod %s reads back priority %v, grace period %v", name, got.Spec.Priority, got.Spec.TerminationGracePeriodSeconds)
		}
	}
}
