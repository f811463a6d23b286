package live

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/control"
	"rollscope/engine/drain"
	"rollscope/model"
)

// The console's controllers list and watch no pod while no drain or
// canary needs them; a drain requested then lists them all before it
// reads any (so it evicts the node's pod rather than finding it empty),
// and once it is over and no one has read pods for a while the pod watch
// ends.
func TestConsoleWatchesPodsOnlyWhileADrainNeedsThem(t *testing.T) {
	client := fake.NewClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "shop",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs", Controller: ptr(true)}}},
			Spec: corev1.PodSpec{NodeName: "n1"}},
	)
	podLists := func() int {
		n := 0
		for _, a := range client.Actions() {
			if a.GetResource().Resource == "pods" && (a.GetVerb() == "list" || a.GetVerb() == "watch") {
				n++
			}
		}
		return n
	}
	r, err := NewScopedRunner(client, Scope{Trim: true, PodsNeeded: consoleNeedsPods}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.pods.idle = 100 * time.Millisecond
	r.Add(drain.New(r.Env("drain-controller")))
	ctx := runForTest(t, r)
	if pods, _ := r.Listers().Pods.List(labels.Everything()); len(pods) != 0 || podLists() != 0 || r.pods.running() {
		t.Fatalf("with nothing to do the controllers read %d pods, listed or watched pods %d times", len(pods), podLists())
	}

	if err := drain.Request(ctx, client, "n1", drain.Options{DisableEviction: true}); err != nil {
		t.Fatal(err)
	}
	waitFor(ctx, t, "the drain to end", func() bool {
		n, err := client.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
		return err == nil && model.DrainOver(n.Annotations[model.DrainStateAnnotation])
	})
	n, _ := client.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
	if st := n.Annotations[model.DrainStateAnnotation]; st != model.DrainDrained {
		t.Errorf("drain ended %s: %s", st, n.Annotations[model.DrainMessageAnnotation])
	}
	if _, err := client.CoreV1().Pods("shop").Get(ctx, "web-1", metav1.GetOptions{}); err == nil {
		t.Error("the node's pod is still there: the drain read an empty pod cache")
	}
	if podLists() == 0 {
		t.Error("the drain never listed pods")
	}
	waitFor(ctx, t, "the pod watch to end once the drain is over", func() bool { return !r.pods.running() })
}

// A canary on a Deployment is work that reads pods; a Deployment without
// one, a node whose drain is over or never asked for are not.
func TestConsoleNeedsPodsForDrainsAndCanaries(t *testing.T) {
	for _, c := range []struct {
		name string
		objs []any
		want bool
	}{
		{"nothing", []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}}, false},
		{"drain requested", []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Annotations: map[string]string{model.DrainRequestAnnotation: "{}"}}}}, true},
		{"drain over", []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Annotations: map[string]string{
			model.DrainRequestAnnotation: "{}", model.DrainStateAnnotation: model.DrainDrained}}}}, false},
		{"canary", []any{&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", Annotations: map[string]string{model.CanaryAnnotation: "{}"}}}}, true},
	} {
		r, err := NewScopedRunner(fake.NewClientset(), Scope{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range c.objs {
			switch o := o.(type) {
			case *corev1.Node:
				_ = r.informers[control.Nodes].GetIndexer().Add(o)
			case *appsv1.Deployment:
				_ = r.informers[control.Deployments].GetIndexer().Add(o)
			}
		}
		if got := consoleNeedsPods(r.Listers()); got != c.want {
			t.Errorf("%s: pods needed %v, want %v", c.name, got, c.want)
		}
	}
}

func waitFor(ctx context.Context, t *testing.T, what string, ok func() bool) {
	t.Helper()
	for !ok() {
		select {
		case <-ctx.Done():
			t.Fatalf("waited in vain for %s", what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
