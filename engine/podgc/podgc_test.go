package podgc

import (
	"context"
	"math/rand"
	"reflect"
	"sort"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	testingclock "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type recordingQueue struct {
	clock *testingclock.FakePassiveClock
	due   map[string]time.Time
}

func (q *recordingQueue) Add(key string) { q.AddAfter(key, 0) }

func (q *recordingQueue) AddAfter(key string, d time.Duration) {
	at := q.clock.Now().Add(d)
	if cur, ok := q.due[key]; !ok || at.Before(cur) {
		q.due[key] = at
	}
}

type harness struct {
	t        *testing.T
	clock    *testingclock.FakePassiveClock
	client   *fake.Clientset
	pods     cache.Indexer
	nodes    cache.Indexer
	queue    *recordingQueue
	gc       *Controller
	handlers map[control.Kind]cache.ResourceEventHandler
}

// newHarness starts with nodes n1 and n2 and pods a1, a2 on n1, b1 on n2 and
// an unbound pod u.
func newHarness(t *testing.T, quarantine time.Duration) *harness {
	clock := testingclock.NewFakePassiveClock(t0)
	h := &harness{
		t:      t,
		clock:  clock,
		client: fake.NewSimpleClientset(),
		pods:   cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Pods)),
		nodes:  cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Nodes)),
		queue:  &recordingQueue{clock: clock, due: map[string]time.Time{}},
	}
	h.gc = New(&control.Env{
		Client:  h.client,
		Listers: control.Listers{Pods: corelisters.NewPodLister(h.pods), Nodes: corelisters.NewNodeLister(h.nodes), PodIndex: h.pods},
		Clock:   clock,
		Rand:    rand.New(rand.NewSource(1)),
	})
	h.gc.Quarantine = quarantine
	h.handlers = h.gc.Watches(h.queue)
	for _, n := range []string{"n1", "n2"} {
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n}}
		_ = h.client.Tracker().Add(node)
		_ = h.nodes.Add(node)
		h.handlers[control.Nodes].OnAdd(node, false)
	}
	for name, node := range map[string]string{"a1": "n1", "a2": "n1", "b1": "n2", "u": ""} {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
			Spec:       corev1.PodSpec{NodeName: node},
			Status:     corev1.PodStatus{Phase: corev1.PodRunning},
		}
		if node == "" {
			p.Status.Phase = corev1.PodPending
		}
		_ = h.client.Tracker().Add(p)
		_ = h.pods.Add(p)
		h.handlers[control.Pods].OnAdd(p, false)
	}
	return h
}

// run syncs due keys, in time order, until the given time.
func (h *harness) run(until time.Duration) {
	h.t.Helper()
	for {
		best, bestAt := "", time.Time{}
		for k, at := range h.queue.due {
			if !at.After(t0.Add(until)) && (best == "" || at.Before(bestAt) || (at.Equal(bestAt) && k < best)) {
				best, bestAt = k, at
			}
		}
		if best == "" {
			break
		}
		delete(h.queue.due, best)
		if bestAt.After(h.clock.Now()) {
			h.clock.SetTime(bestAt)
		}
		if err := h.gc.Sync(context.Background(), best); err != nil {
			h.t.Fatalf("Sync(%q): %v", best, err)
		}
	}
	h.clock.SetTime(t0.Add(until))
}

func (h *harness) removeNode(name string) {
	obj, _, _ := h.nodes.GetByKey(name)
	if err := h.client.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		h.t.Fatal(err)
	}
	_ = h.nodes.Delete(obj)
	h.handlers[control.Nodes].OnDelete(obj)
}

func (h *harness) podNames() []string {
	list, err := h.client.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, p := range list.Items {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}

func TestPodsOfAVanishedNodeAreForceDeletedAfterQuarantine(t *testing.T) {
	h := newHarness(t, DefaultQuarantine)
	h.run(time.Minute)
	h.client.ClearActions()

	h.removeNode("n1")
	h.run(time.Minute + DefaultQuarantine - time.Millisecond)
	if got, want := h.podNames(), []string{"a1", "a2", "b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pods during quarantine = %v, want %v", got, want)
	}
	h.run(time.Minute + DefaultQuarantine)
	if got, want := h.podNames(), []string{"b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pods after quarantine = %v, want %v", got, want)
	}

	failed, deleted := map[string]bool{}, map[string]bool{}
	for _, a := range h.client.Actions() {
		switch a := a.(type) {
		case clienttesting.UpdateActionImpl:
			p := a.GetObject().(*corev1.Pod)
			var cond *corev1.PodCondition
			for i := range p.Status.Conditions {
				if p.Status.Conditions[i].Type == corev1.DisruptionTarget {
					cond = &p.Status.Conditions[i]
				}
			}
			if a.GetSubresource() != "status" || p.Status.Phase != corev1.PodFailed || cond == nil ||
				cond.Reason != "DeletionByPodGC" || cond.Message != "PodGC: node no longer exists" {
				t.Errorf("update of %s: subresource %q phase %s condition %+v, want status Failed with DisruptionTarget DeletionByPodGC",
					p.Name, a.GetSubresource(), p.Status.Phase, cond)
			}
			failed[p.Name] = true
		case clienttesting.DeleteActionImpl:
			if a.GetResource().Resource != "pods" {
				continue
			}
			if g := a.DeleteOptions.GracePeriodSeconds; g == nil || *g != 0 {
				t.Errorf("delete of %s with grace %v, want 0", a.Name, g)
			}
			if a.DeleteOptions.Preconditions == nil || a.DeleteOptions.Preconditions.UID == nil {
				t.Errorf("delete of %s without a UID precondition", a.Name)
			}
			deleted[a.Name] = true
		}
	}
	want := map[string]bool{"a1": true, "a2": true}
	if !reflect.DeepEqual(failed, want) || !reflect.DeepEqual(deleted, want) {
		t.Errorf("marked Failed %v and deleted %v, want both %v", failed, deleted, want)
	}
}

func TestNodeThatComesBackKeepsItsPods(t *testing.T) {
	h := newHarness(t, DefaultQuarantine)
	h.removeNode("n1")
	h.run(10 * time.Second)
	back := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	_ = h.nodes.Add(back)
	h.run(time.Minute)
	if got, want := h.podNames(), []string{"a1", "a2", "b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pods = %v, want %v: n1 is back", got, want)
	}
}

func TestPodBoundToAMissingNodeIsCollectedWithoutQuarantine(t *testing.T) {
	h := newHarness(t, 0)
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "late", Namespace: "default", UID: "uid-late"}, Spec: corev1.PodSpec{NodeName: "gone"}}
	_ = h.client.Tracker().Add(p)
	_ = h.pods.Add(p)
	h.handlers[control.Pods].OnAdd(p, false)
	h.run(0)
	if got, want := h.podNames(), []string{"a1", "a2", "b1", "u"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pods = %v, want %v: the pod bound to a node that does not exist is gone", got, want)
	}
}
