package watch_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/clock"

	"rollscope/kube/watch"
	"rollscope/model/cluster"
)

var ctx = context.Background()

// hangGuard only stops a broken test from hanging; no test relies on it.
const hangGuard = 20 * time.Second

// received is what the bridge sent, with the real time each batch arrived.
type received struct {
	mu      sync.Mutex
	batches []cluster.Batch
	arrived []time.Time
}

func (r *received) send(b cluster.Batch) {
	r.mu.Lock()
	r.batches = append(r.batches, b)
	r.arrived = append(r.arrived, time.Now())
	r.mu.Unlock()
}

func (r *received) snapshot() ([]cluster.Batch, []time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.batches), slices.Clone(r.arrived)
}

// find returns the latest version of an object sent so far, and whether its
// latest mention was a deletion.
func (r *received) find(ref cluster.ObjectRef) (obj metav1.Object, deleted bool) {
	batches, _ := r.snapshot()
	for _, b := range batches {
		for _, o := range b.Objects {
			if m := o.(metav1.Object); refOf(o) == ref {
				obj, deleted = m, false
			}
		}
		if slices.Contains(b.Deleted, ref) {
			obj, deleted = nil, true
		}
	}
	return obj, deleted
}

func refOf(o any) cluster.ObjectRef {
	m := o.(metav1.Object)
	kind := ""
	switch o.(type) {
	case *corev1.Pod:
		kind = "Pod"
	case *corev1.Node:
		kind = "Node"
	case *corev1.Event:
		kind = "Event"
	default:
		kind = "other"
	}
	return cluster.ObjectRef{Kind: kind, Namespace: m.GetNamespace(), Name: m.GetName()}
}

// run starts a bridge and stops it, waiting for Run to return, when the
// test ends.
func run(t *testing.T, client kubernetes.Interface, scope watch.Scope, opts watch.Options) *received {
	t.Helper()
	r := &received{}
	b := watch.New(client, scope, clock.RealClock{}, r.send, opts)
	c, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- b.Run(c) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return r
}

// eventually polls cond until it holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, hangGuard, true, func(context.Context) (bool, error) { return cond(), nil })
	if err != nil {
		t.Fatalf("never happened: %s", what)
	}
}

func pod(namespace, name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.25"}}},
	}
}

func node(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
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
