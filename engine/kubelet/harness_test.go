package kubelet

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	testingclock "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// queued is one call the controller made on its queue.
type queued struct {
	key string
	at  time.Time
}

// recordingQueue is a virtual-time work queue: it remembers every call and,
// like client-go's delaying queue, keeps the earliest due time per key.
type recordingQueue struct {
	clock *testingclock.FakePassiveClock
	calls []queued
	due   map[string]time.Time
}

func (q *recordingQueue) Add(key string) { q.AddAfter(key, 0) }

func (q *recordingQueue) AddAfter(key string, d time.Duration) {
	at := q.clock.Now().Add(d)
	q.calls = append(q.calls, queued{key, at})
	if cur, ok := q.due[key]; !ok || at.Before(cur) {
		q.due[key] = at
	}
}

// pop returns the key due first, not later than until.
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

// eventLog records events as "Type Reason Message".
type eventLog struct {
	mu  sync.Mutex
	all []string
}

func (e *eventLog) Eventf(_ runtime.Object, eventType, reason, messageFmt string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, eventType+" "+reason+" "+fmt.Sprintf(messageFmt, args...))
}

// harness drives one kubelet the way the simulation runner does: syncs in
// virtual-time order, and after each one the caches catch up with the API and
// the kubelet's handlers see the changes.
type harness struct {
	t        *testing.T
	clock    *testingclock.FakePassiveClock
	client   *fake.Clientset
	pods     cache.Indexer
	nodes    cache.Indexer
	queue    *recordingQueue
	events   *eventLog
	kubelet  *Kubelet
	handlers map[control.Kind]cache.ResourceEventHandler
	// history is every status a pod had, by pod name, in order.
	history map[string][]statusAt
}

type statusAt struct {
	at     time.Time
	status corev1.PodStatus
}

func newHarness(t *testing.T, seed int64, rules []ImageRule, opts Options) *harness {
	t.Helper()
	clock := testingclock.NewFakePassiveClock(t0)
	h := &harness{
		t:       t,
		clock:   clock,
		client:  fake.NewSimpleClientset(),
		pods:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Pods)),
		nodes:   cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Nodes)),
		queue:   &recordingQueue{clock: clock, due: map[string]time.Time{}},
		events:  &eventLog{},
		history: map[string][]statusAt{},
	}
	h.kubelet = New(h.env(seed), rules, opts)
	h.handlers = h.kubelet.Watches(h.queue)
	return h
}

func (h *harness) env(seed int64) *control.Env {
	return &control.Env{
		Client: h.client,
		Listers: control.Listers{
			Pods:     corelisters.NewPodLister(h.pods),
			Nodes:    corelisters.NewNodeLister(h.nodes),
			PodIndex: h.pods,
		},
		Clock:  h.clock,
		Events: h.events,
		Rand:   rand.New(rand.NewSource(seed)),
	}
}

// restartKubelet replaces the kubelet by a new one with no memory, as when a
// hollow node restarts; the informers list everything again.
func (h *harness) restartKubelet(rules []ImageRule) {
	h.queue.due = map[string]time.Time{}
	h.kubelet = New(h.env(99), rules, Options{})
	h.handlers = h.kubelet.Watches(h.queue)
	for _, obj := range h.nodes.List() {
		h.handlers[control.Nodes].OnAdd(obj, true)
	}
	for _, obj := range h.pods.List() {
		h.handlers[control.Pods].OnAdd(obj, true)
	}
}

func (h *harness) addNode(name string, ready bool) {
	h.t.Helper()
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: corev1.NodeStatus{
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.7"}},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse}},
		},
	}
	if ready {
		n.Status.Conditions[0].Status = corev1.ConditionTrue
	}
	if _, err := h.client.CoreV1().Nodes().Create(context.Background(), n, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	h.observe()
}

func (h *harness) setNodeReady(name string, ready bool) {
	h.t.Helper()
	n, err := h.client.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	n.Status.Conditions[0].Status = corev1.ConditionFalse
	if ready {
		n.Status.Conditions[0].Status = corev1.ConditionTrue
	}
	if _, err := h.client.CoreV1().Nodes().UpdateStatus(context.Background(), n, metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	h.observe()
}

// addPod creates a pod bound to node with one container per image, named
// a, b, c, ...
func (h *harness) addPod(name, node string, images ...string) *corev1.Pod {
	h.t.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec:       corev1.PodSpec{NodeName: node, RestartPolicy: corev1.RestartPolicyAlways},
		Status: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(h.clock.Now())},
		}},
	}
	for i, img := range images {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: string(rune('a' + i)), Image: img})
	}
	if _, err := h.client.CoreV1().Pods("default").Create(context.Background(), p, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	h.observe()
	return p
}

// deletePod does what the API server does on a graceful delete of a bound
// pod: it sets deletionTimestamp to now + grace and leaves the pod in place.
func (h *harness) deletePod(name string, grace int64) {
	h.t.Helper()
	p, err := h.client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	p.DeletionTimestamp = ptrTo(metav1.NewTime(h.clock.Now().Add(time.Duration(grace) * time.Second)))
	p.DeletionGracePeriodSeconds = &grace
	if _, err := h.client.CoreV1().Pods("default").Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	h.observe()
}

// runFor syncs every key that falls due within d, in time order.
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
		if err := h.kubelet.Sync(context.Background(), key); err != nil {
			h.t.Fatalf("Sync(%q) at %v: %v", key, h.elapsed(), err)
		}
		h.observe()
	}
	h.clock.SetTime(until)
}

func (h *harness) elapsed() time.Duration { return h.clock.Now().Sub(t0) }

// observe brings the caches up to date with the API and calls the handlers,
// as informers would.
func (h *harness) observe() {
	h.t.Helper()
	ctx := context.Background()
	pods, err := h.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	var objs []runtime.Object
	for i := range pods.Items {
		objs = append(objs, &pods.Items[i])
	}
	h.sync(control.Pods, h.pods, objs)
	nodes, err := h.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	objs = objs[:0]
	for i := range nodes.Items {
		objs = append(objs, &nodes.Items[i])
	}
	h.sync(control.Nodes, h.nodes, objs)
}

func (h *harness) sync(kind control.Kind, ix cache.Indexer, objs []runtime.Object) {
	seen := map[string]bool{}
	for _, obj := range objs {
		key := control.Key(obj)
		seen[key] = true
		old, exists, _ := ix.GetByKey(key)
		switch {
		case !exists:
			_ = ix.Add(obj)
			h.handlers[kind].OnAdd(obj, false)
		case !equality.Semantic.DeepEqual(old, obj):
			_ = ix.Update(obj)
			h.handlers[kind].OnUpdate(old, obj)
		default:
			continue
		}
		if p, ok := obj.(*corev1.Pod); ok {
			h.history[p.Name] = append(h.history[p.Name], statusAt{h.clock.Now(), *p.Status.DeepCopy()})
		}
	}
	keys := ix.ListKeys()
	sort.Strings(keys)
	for _, key := range keys {
		if !seen[key] {
			old, _, _ := ix.GetByKey(key)
			_ = ix.Delete(old)
			h.handlers[kind].OnDelete(old)
		}
	}
}

// pod returns the pod as the API has it, or nil when it is gone.
func (h *harness) pod(name string) *corev1.Pod {
	p, err := h.client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return p
}

func (h *harness) mustPod(name string) *corev1.Pod {
	h.t.Helper()
	p := h.pod(name)
	if p == nil {
		h.t.Fatalf("pod %s is gone at %v", name, h.elapsed())
	}
	return p
}

func podCondition(p *corev1.Pod, t corev1.PodConditionType) corev1.PodCondition {
	for _, c := range p.Status.Conditions {
		if c.Type == t {
			return c
		}
	}
	return corev1.PodCondition{}
}

// firstTime returns when the pod's status first satisfied ok.
func (h *harness) firstTime(name string, ok func(*corev1.PodStatus) bool) time.Duration {
	h.t.Helper()
	for _, s := range h.history[name] {
		if ok(&s.status) {
			return s.at.Sub(t0)
		}
	}
	h.t.Fatalf("pod %s never reached the wanted status", name)
	return 0
}

func isReady(s *corev1.PodStatus) bool {
	for _, c := range s.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

var metav1UpdateOptions = metav1.UpdateOptions{}
