package nodegroup

import (
	"context"
	"math/rand"
	"sort"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	testingclock "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// recordingQueue is a virtual-time work queue that keeps the earliest due
// time per key and remembers every call.
type recordingQueue struct {
	clock *testingclock.FakePassiveClock
	calls []string
	due   map[string]time.Time
}

func (q *recordingQueue) Add(key string) { q.AddAfter(key, 0) }

func (q *recordingQueue) AddAfter(key string, d time.Duration) {
	at := q.clock.Now().Add(d)
	q.calls = append(q.calls, key)
	if cur, ok := q.due[key]; !ok || at.Before(cur) {
		q.due[key] = at
	}
}

func (q *recordingQueue) pop(until time.Time) (string, time.Time, bool) {
	best, bestAt := "", time.Time{}
	for k, at := range q.due {
		if at.After(until) {
			continue
		}
		if best == "" || at.Before(bestAt) || (at.Equal(bestAt) && k < best) {
			best, bestAt = k, at
		}
	}
	if best == "" {
		return "", time.Time{}, false
	}
	delete(q.due, best)
	return best, bestAt, true
}

// harness runs the controller against a fake clientset, in virtual-time
// order, with the node cache following the API after every sync.
type harness struct {
	t        *testing.T
	clock    *testingclock.FakePassiveClock
	client   *fake.Clientset
	nodes    cache.Indexer
	queue    *recordingQueue
	ctrl     *Controller
	handlers map[control.Kind]cache.ResourceEventHandler
	// firstSeen is when each node first appeared; readyAt when it first was
	// Ready without the not-ready taint.
	firstSeen, readyAt map[string]time.Duration
}

func newHarness(t *testing.T, groups []Group, configure func(*Controller)) *harness {
	t.Helper()
	clock := testingclock.NewFakePassiveClock(t0)
	h := &harness{
		t:         t,
		clock:     clock,
		client:    fake.NewSimpleClientset(),
		nodes:     cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Nodes)),
		queue:     &recordingQueue{clock: clock, due: map[string]time.Time{}},
		firstSeen: map[string]time.Duration{},
		readyAt:   map[string]time.Duration{},
	}
	h.ctrl = New(&control.Env{
		Client:  h.client,
		Listers: control.Listers{Nodes: corelisters.NewNodeLister(h.nodes)},
		Clock:   clock,
		Rand:    rand.New(rand.NewSource(1)),
	}, groups)
	if configure != nil {
		configure(h.ctrl)
	}
	h.handlers = h.ctrl.Watches(h.queue)
	return h
}

func (h *harness) runFor(d time.Duration) {
	h.t.Helper()
	until := h.clock.Now().Add(d)
	for {
		key, at, ok := h.queue.pop(until)
		if !ok {
			break
		}
		if at.After(h.clock.Now()) {
			h.clock.SetTime(at)
		}
		if err := h.ctrl.Sync(context.Background(), key); err != nil {
			h.t.Fatalf("Sync(%q) at %v: %v", key, h.clock.Now().Sub(t0), err)
		}
		h.observe()
	}
	h.clock.SetTime(until)
}

func (h *harness) observe() {
	h.t.Helper()
	list, err := h.client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	now := h.clock.Now().Sub(t0)
	seen := map[string]bool{}
	for i := range list.Items {
		n := &list.Items[i]
		seen[n.Name] = true
		if _, ok := h.firstSeen[n.Name]; !ok {
			h.firstSeen[n.Name] = now
		}
		if c := readyCondition(n); c != nil && c.Status == corev1.ConditionTrue && !hasNotReadyTaint(n) {
			if _, ok := h.readyAt[n.Name]; !ok {
				h.readyAt[n.Name] = now
			}
		}
		old, exists, _ := h.nodes.GetByKey(n.Name)
		switch {
		case !exists:
			_ = h.nodes.Add(n)
			h.handlers[control.Nodes].OnAdd(n, false)
		case !equality.Semantic.DeepEqual(old, n):
			_ = h.nodes.Update(n)
			h.handlers[control.Nodes].OnUpdate(old, n)
		}
	}
	keys := h.nodes.ListKeys()
	sort.Strings(keys)
	for _, k := range keys {
		if !seen[k] {
			old, _, _ := h.nodes.GetByKey(k)
			_ = h.nodes.Delete(old)
			h.handlers[control.Nodes].OnDelete(old)
		}
	}
}

// terminate deletes a node, as a cloud instance termination does.
func (h *harness) terminate(name string) {
	h.t.Helper()
	if err := h.client.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		h.t.Fatal(err)
	}
	h.observe()
}

func (h *harness) node(name string) *corev1.Node {
	h.t.Helper()
	n, err := h.client.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatalf("node %s: %v", name, err)
	}
	return n
}

func (h *harness) names() []string {
	list, err := h.client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, n := range list.Items {
		out = append(out, n.Name)
	}
	sort.Strings(out)
	return out
}

var updateOptions = metav1.UpdateOptions{}
