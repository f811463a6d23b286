package controltest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// watcher is a controller that writes down what its handlers are told and
// which keys it syncs, and when.
type watcher struct {
	clock  func() time.Time
	seen   []string
	synced []string
	// then is called by Sync, to enqueue more work from inside a sync.
	then func(key string)
}

func (w *watcher) Name() string { return "watcher" }

func (w *watcher) Watches(control.Queue) map[control.Kind]cache.ResourceEventHandler {
	return map[control.Kind]cache.ResourceEventHandler{
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) { w.seen = append(w.seen, "add "+describeAny(obj)) },
			UpdateFunc: func(old, cur any) {
				w.seen = append(w.seen, "update "+describeAny(old)+" -> "+describeAny(cur))
			},
			DeleteFunc: func(obj any) { w.seen = append(w.seen, "delete "+describeAny(obj)) },
		},
	}
}

func (w *watcher) Sync(_ context.Context, key string) error {
	w.synced = append(w.synced, fmt.Sprintf("%s@%s", key, w.clock().Sub(Start)))
	if w.then != nil {
		w.then(key)
	}
	return nil
}

func describeAny(obj any) string {
	p := obj.(*corev1.Pod)
	return p.Name + "/" + string(p.Status.Phase) + "/rv" + p.ResourceVersion
}

func pod(name string, phase corev1.PodPhase) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Status: corev1.PodStatus{Phase: phase}}
}

func TestNewSeedsTheAPIAndTheCachesWithoutRecordingActions(t *testing.T) {
	sts := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default"}}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	h := New(t, pod("b", corev1.PodRunning), node, sts, pod("a", corev1.PodPending))
	if a := h.Client.Actions(); len(a) != 0 {
		t.Errorf("seeding recorded %v: the controller did none of it", a)
	}

	pods, err := h.Env.Listers.Pods.List(labels.Everything())
	if err != nil || len(pods) != 2 {
		t.Errorf("pod lister holds %v (%v), want pods a and b", pods, err)
	}
	if got := h.Names(control.Pods); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("pods in the API: %v, want [a b]", got)
	}
	if _, err := h.Env.Listers.Nodes.Get("n1"); err != nil {
		t.Errorf("node lister: %v", err)
	}
	if _, err := h.Client.CoreV1().ConfigMaps("default").Get(context.Background(), "db", metav1.GetOptions{}); err != nil {
		t.Errorf("a ConfigMap goes to the API: %v", err)
	}
	for _, kind := range control.AllKinds {
		want := map[control.Kind]int{control.Pods: 2, control.Nodes: 1}[kind]
		if n := len(h.Indexer(kind).List()); n != want {
			t.Errorf("%s cache holds %d objects, want %d", kind, n, want)
		}
	}
	if !h.Clock.Now().Equal(Start) || h.Env.Clock != h.Clock || h.Env.Events != h.Events || h.Env.Rand == nil {
		t.Error("the controller's environment is not the harness's clock, events and a seeded Rand")
	}
}

func TestAddUpdateDeleteKeepAPIAndCacheInStepAndTellTheController(t *testing.T) {
	h := New(t)
	w := &watcher{clock: h.Clock.Now}
	h.Watch(w)
	h.Add(pod("a", corev1.PodPending))
	h.Update(pod("a", corev1.PodRunning))
	h.Delete(pod("a", corev1.PodRunning))
	want := []string{"add a/Pending/rv", "update a/Pending/rv -> a/Running/rv", "delete a/Running/rv"}
	if !slices.Equal(w.seen, want) {
		t.Errorf("handlers saw %q, want %q", w.seen, want)
	}
	if n := len(h.Indexer(control.Pods).List()); n != 0 {
		t.Errorf("cache holds %d pods after the delete", n)
	}
	if _, err := h.Client.CoreV1().Pods("default").Get(context.Background(), "a", metav1.GetOptions{}); err == nil {
		t.Error("the deleted pod is still in the API")
	}
	if a := h.Client.Actions(); len(a) != 1 || a[0].GetVerb() != "get" {
		t.Errorf("actions %v: the harness's own writes must not be recorded as the controller's", a)
	}
}

func TestObserveDeliversWhatChangedWithFreshVersions(t *testing.T) {
	h := New(t)
	w := &watcher{clock: h.Clock.Now}
	h.Watch(w)
	ctx := context.Background()
	pods := h.Client.CoreV1().Pods("default")
	for _, name := range []string{"b", "a"} {
		if _, err := pods.Create(ctx, pod(name, corev1.PodPending), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.Observe(control.Pods, control.Nodes); len(got) != 2 {
		t.Errorf("first observe returned %d changes, want 2", len(got))
	}
	if got := h.Observe(control.Pods); len(got) != 0 {
		t.Errorf("observing again with nothing changed returned %v", got)
	}
	running := pod("a", corev1.PodRunning)
	running.ResourceVersion = "1" // as the controller would write it back
	if _, err := pods.Update(ctx, running, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := pods.Delete(ctx, "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	h.Observe(control.Pods)
	want := []string{
		"add a/Pending/rv1", "add b/Pending/rv2",
		"update a/Pending/rv1 -> a/Running/rv3", "delete b/Pending/rv2",
	}
	if !slices.Equal(w.seen, want) {
		t.Errorf("handlers saw %q, want %q", w.seen, want)
	}
	lists := 0
	for _, a := range h.Client.Actions() {
		if a.GetVerb() == "list" {
			lists++
		}
	}
	if lists != 4 {
		t.Errorf("%d list actions, want one per kind observed (4)", lists)
	}
}

func TestQueueKeepsTheEarliestDueTimeAndRecordsEveryCall(t *testing.T) {
	h := New(t)
	q := h.Queue
	q.AddAfter("late", 10*time.Second)
	q.AddAfter("b", 5*time.Second)
	q.Add("a")
	q.AddAfter("a", time.Minute) // already due sooner
	q.AddAfter("c", 5*time.Second)
	if want := []string{"a"}; !slices.Equal(q.Added, want) {
		t.Errorf("Added %v, want %v", q.Added, want)
	}
	if got := fmt.Sprint(q.After); got != "[late@10s b@5s a@1m0s c@5s]" {
		t.Errorf("After %s", got)
	}
	if w := q.Waiting(); len(w) != 4 || !w["a"].Equal(Start) {
		t.Errorf("waiting %v, want four keys with a due now", w)
	}
	var order []string
	for {
		key, at, ok := q.Next(Start.Add(5 * time.Second))
		if !ok {
			break
		}
		order = append(order, fmt.Sprintf("%s@%s", key, at.Sub(Start)))
	}
	if want := []string{"a@0s", "b@5s", "c@5s"}; !slices.Equal(order, want) {
		t.Errorf("taken %v, want %v (by time, then key, and none after the limit)", order, want)
	}
	q.Forget()
	if w := q.Waiting(); len(w) != 0 {
		t.Errorf("after Forget, waiting %v", w)
	}
}

func TestRunUntilSyncsInDueOrderOnTheClock(t *testing.T) {
	h := New(t)
	w := &watcher{clock: h.Clock.Now}
	w.then = func(key string) {
		if key == "first" {
			h.Queue.AddAfter("again", 2*time.Second)
			h.Queue.AddAfter("too-late", time.Hour)
		}
	}
	h.Watch(w)
	h.Queue.AddAfter("first", time.Second)
	settled := 0
	h.RunUntil(Start.Add(10*time.Second), func() { settled++ })
	if want := []string{"first@1s", "again@3s"}; !slices.Equal(w.synced, want) {
		t.Errorf("synced %v, want %v", w.synced, want)
	}
	if settled != 2 {
		t.Errorf("settled %d times, want once after each sync", settled)
	}
	if got := h.Clock.Now().Sub(Start); got != 10*time.Second {
		t.Errorf("clock at %v, want the end of the run", got)
	}
	if _, ok := h.Queue.Waiting()["too-late"]; !ok {
		t.Error("a key due after the run was taken")
	}
}

func TestEventsAreKeptAsLines(t *testing.T) {
	h := New(t)
	h.Env.Events.Eventf(pod("a", ""), corev1.EventTypeWarning, "BackOff", "Back-off %s", "restarting")
	if want := []string{"Warning BackOff Back-off restarting"}; !slices.Equal(h.Events.Lines, want) {
		t.Errorf("events %q, want %q", h.Events.Lines, want)
	}
}
