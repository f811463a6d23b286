package live

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// A scoped runner's caches hold its namespace's pods and its own nodes
// only, which is what keeps two simulations on one cluster apart.
func TestScopedRunnerSeesOnlyItsNamespaceAndNodes(t *testing.T) {
	client := fake.NewClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "ours", Labels: map[string]string{LabelSimulation: "run-a"}}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "theirs", Labels: map[string]string{LabelSimulation: "run-b"}}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "real"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "run-a"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "run-b"}},
	)
	r, err := NewScopedRunner(client, Scope{Namespace: "run-a", NodeSelector: LabelSimulation + "=run-a"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	select {
	case <-r.Synced():
	case <-ctx.Done():
		t.Fatal("the caches never synced")
	}
	nodes, _ := r.Listers().Nodes.List(labels.Everything())
	if len(nodes) != 1 || nodes[0].Name != "ours" {
		t.Errorf("nodes cached: %d (%v), want only ours", len(nodes), nodes)
	}
	pods, _ := r.Listers().Pods.List(labels.Everything())
	if len(pods) != 1 || pods[0].Namespace != "run-a" {
		t.Errorf("pods cached: %d, want only run-a's", len(pods))
	}
}

// A live run of a scenario seeds its controllers as the embedded run of
// the same scenario does: the hollow kubelet draws the same readiness
// jitter for its pods on either, so the two time their pods alike and a
// fidelity test compares controllers, not luck.
func TestALiveRunDrawsTheEmbeddedRunsJitter(t *testing.T) {
	client := fake.NewClientset()
	liveRunner, err := NewScopedRunner(client, Scope{Seed: 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(time.Unix(0, 0))
	api := memapi.New(memapi.Options{Clock: clock})
	embedded := sim.New(api.Client(), api, clock, 7)
	defer embedded.Close()
	other, err := NewScopedRunner(client, Scope{Seed: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, e, o := liveRunner.Env("kubelet").Rand, embedded.Env("kubelet").Rand, other.Env("kubelet").Rand
	differs := false
	for i := range 5 {
		got, want, elsewhere := l.Float64(), e.Float64(), o.Float64()
		if got != want {
			t.Fatalf("draw %d: the live kubelet drew %v, the embedded one %v", i, got, want)
		}
		differs = differs || got != elsewhere
	}
	if !differs {
		t.Error("seeds 7 and 8 drew the same jitter: the scenario's seed is not what the live run draws from")
	}
}
