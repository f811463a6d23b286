package sim

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// eventWatcher records what its event handlers are handed.
type eventWatcher struct {
	seen []string
	old  []*corev1.Event
}

func (w *eventWatcher) Name() string { return "events" }
func (w *eventWatcher) Watches(control.Queue) map[control.Kind]cache.ResourceEventHandler {
	name := func(obj any) string { return obj.(*corev1.Event).Name }
	return map[control.Kind]cache.ResourceEventHandler{control.Events: cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { w.seen = append(w.seen, "add "+name(obj)) },
		UpdateFunc: func(old, cur any) {
			w.seen = append(w.seen, fmt.Sprintf("update %s %d→%d", name(cur), old.(*corev1.Event).Count, cur.(*corev1.Event).Count))
			w.old = append(w.old, old.(*corev1.Event))
		},
		DeleteFunc: func(obj any) { w.seen = append(w.seen, "delete "+name(obj)) },
	}}
}
func (w *eventWatcher) Sync(context.Context, string) error { return nil }

// TestEventHandlersSeeTheEventAnUpdateReplaced: the runner's event cache
// holds events packed, yet an update's handler gets the replaced event as
// it was delivered — for an event that packs and for one that does not —
// and tells an update from an add after a deletion.
func TestEventHandlersSeeTheEventAnUpdateReplaced(t *testing.T) {
	r, src, _ := newRunner(t)
	w := &eventWatcher{}
	r.Add(w)
	at := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 3, 0, time.UTC))
	event := func(name string, count int32, rv string) *corev1.Event {
		return &corev1.Event{
			ObjectMeta: metav1.ObjectMeta{
				Name: name, Namespace: "default", ResourceVersion: rv,
				UID: "0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3", CreationTimestamp: at,
			},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "web",
				UID: "ffffffff-0000-4000-8000-123456789abc", ResourceVersion: "7"},
			Reason: "BackOff", Message: "Back-off pulling image", Type: corev1.EventTypeWarning,
			Source:         corev1.EventSource{Component: "kubelet", Host: "node-1"},
			FirstTimestamp: at, LastTimestamp: metav1.NewTime(at.Add(time.Duration(count) * time.Second)), Count: count,
		}
	}
	packs := event("web.1", 1, "10")
	odd := event("web.2", 1, "11")
	odd.Annotations = map[string]string{"a": "b"}
	oddAgain := event("web.2", 2, "13")
	oddAgain.Annotations = odd.Annotations
	for _, ev := range []watch.Event{
		{Type: watch.Added, Object: packs},
		{Type: watch.Added, Object: odd},
		{Type: watch.Modified, Object: event("web.1", 2, "12")},
		{Type: watch.Modified, Object: oddAgain},
		{Type: watch.Deleted, Object: event("web.1", 2, "14")},
		{Type: watch.Added, Object: event("web.1", 1, "15")},
	} {
		src.fn(ev)
	}
	if _, err := r.Run(context.Background(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "[add web.1 add web.2 update web.1 1→2 update web.2 1→2 delete web.1 add web.1]"
	if got := fmt.Sprint(w.seen); got != want {
		t.Errorf("handlers saw %s\nwant %s", got, want)
	}
	if len(w.old) == 2 && w.old[0] == packs {
		t.Errorf("the event that packs was held as it is")
	}
	if len(w.old) != 2 || !reflect.DeepEqual(w.old[0], packs) || w.old[1] != odd {
		t.Errorf("updates replaced\n%#v\nwant the events first delivered\n%#v\n%#v", w.old, packs, odd)
	}
}

// changeSource stands in for the embedded API's commit stream with what
// each change replaced.
type changeSource struct {
	pushSource
	change func(watch.Event, runtime.Object)
}

func (c *changeSource) SubscribeChanges(fn func(watch.Event, runtime.Object)) func() {
	c.change = fn
	return func() { c.change = nil }
}

// TestEventHandlersGetWhatTheSourceReplaced: with a source that tells what
// each change replaced, the runner keeps only the events' names, and an
// update's handler gets the replaced event the source handed it.
func TestEventHandlersGetWhatTheSourceReplaced(t *testing.T) {
	src := &changeSource{}
	clk := NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	r := New(fake.NewSimpleClientset(), src, clk, 1)
	w := &eventWatcher{}
	r.Add(w)
	event := func(name string, count int32) *corev1.Event {
		return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Count: count}
	}
	first, again := event("web.1", 1), event("web.1", 2)
	src.change(watch.Event{Type: watch.Added, Object: first}, nil)
	src.change(watch.Event{Type: watch.Modified, Object: again}, first)
	src.change(watch.Event{Type: watch.Deleted, Object: again}, again)
	src.change(watch.Event{Type: watch.Added, Object: event("web.1", 1)}, nil)
	if _, err := r.Run(context.Background(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "[add web.1 update web.1 1→2 delete web.1 add web.1]"
	if got := fmt.Sprint(w.seen); got != want {
		t.Errorf("handlers saw %s\nwant %s", got, want)
	}
	if len(w.old) != 1 || w.old[0] != first {
		t.Errorf("the update replaced %v, want the event the source handed", w.old)
	}
	if len(r.events.names) != 1 || r.events.packed != nil {
		t.Errorf("the cache holds %d names and %d packed events; want 1 name and no packed map", len(r.events.names), len(r.events.packed))
	}
}
