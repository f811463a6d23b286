package memapi_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// TestStoredEventsReadBackAsCommitted: the cluster keeps most events packed
// (model/eventpack); every reader — get, list, a watch from the start, a
// patch's answer — must still see exactly the Event its subscribers were
// handed when it was committed, for events that pack and for one that
// does not.
func TestStoredEventsReadBackAsCommitted(t *testing.T) {
	f := newFixture(t)
	committed := map[string]*corev1.Event{}
	cancel := f.cluster.Subscribe(func(ev watch.Event) {
		if e, ok := ev.Object.(*corev1.Event); ok && ev.Type != watch.Deleted {
			committed[e.Name] = e.DeepCopy()
		}
	})
	defer cancel()

	pod, err := f.client.CoreV1().Pods("default").Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:1.25"}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at := metav1.NewTime(f.clock.Now().Add(1500 * time.Millisecond)) // fractions: stored as whole seconds
	event := func(name, reason string) *corev1.Event {
		return &corev1.Event{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			InvolvedObject: corev1.ObjectReference{
				Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: pod.Name,
				UID: pod.UID, ResourceVersion: pod.ResourceVersion,
			},
			Reason: reason, Message: reason + " " + name, Type: corev1.EventTypeNormal,
			Source:         corev1.EventSource{Component: "default-scheduler"},
			FirstTimestamp: at, LastTimestamp: at, Count: 1,
		}
	}
	events := f.client.CoreV1().Events("default")
	for _, e := range []*corev1.Event{event("web-1.a", "Scheduled"), event("web-1.b", "Pulled"), event("web-1.c", "Pulled")} {
		if _, err := events.Create(ctx, e, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	odd := event("web-1.d", "Killing")
	odd.Labels = map[string]string{"kept": "as-it-is"}
	odd.Related = &corev1.ObjectReference{Kind: "Node", Name: "node-1"}
	if _, err := events.Create(ctx, odd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	f.clock.Step(90 * time.Second)
	patched, err := events.Patch(ctx, "web-1.b", types.StrategicMergePatchType, []byte(`{"count":2,"lastTimestamp":"2026-01-02T03:05:35Z"}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(patched, committed["web-1.b"]) || patched.Count != 2 {
		t.Errorf("patch answered\n%#v\nthe commit was\n%#v", patched, committed["web-1.b"])
	}
	if _, err := events.Update(ctx, withCount(committed["web-1.c"], 5), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := events.Delete(ctx, "web-1.a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	delete(committed, "web-1.a")

	for name, want := range committed {
		got, err := events.Get(ctx, name, metav1.GetOptions{})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("get %s = %v\n%#v\nthe commit was\n%#v", name, err, got, want)
		}
	}
	list, err := events.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != len(committed) {
		t.Errorf("listed %d events, want %d", len(list.Items), len(committed))
	}
	for i := range list.Items {
		if want := committed[list.Items[i].Name]; !reflect.DeepEqual(&list.Items[i], want) {
			t.Errorf("listed\n%#v\nthe commit was\n%#v", &list.Items[i], want)
		}
	}
	w, err := f.client.CoreV1().Events("").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for range committed {
		ev := <-w.ResultChan()
		got := ev.Object.(*corev1.Event)
		if want := committed[got.Name]; ev.Type != watch.Added || !reflect.DeepEqual(got, want) {
			t.Errorf("watch from the start: %s\n%#v\nthe commit was\n%#v", ev.Type, got, want)
		}
	}
	sel, err := events.List(ctx, metav1.ListOptions{FieldSelector: "reason=Pulled"})
	if err != nil || len(sel.Items) != 2 {
		t.Errorf("events with reason Pulled: %v, %v; want web-1.b and web-1.c", sel, err)
	}
}

func withCount(e *corev1.Event, n int32) *corev1.Event {
	e = e.DeepCopy()
	e.Count = n
	return e
}

// TestSubscribeChangesHandsWhatEachChangeReplaced: Added without a
// predecessor, Modified with the version committed before it (a packed
// event read back equal), Deleted with the object as it was stored.
func TestSubscribeChangesHandsWhatEachChangeReplaced(t *testing.T) {
	f := newFixture(t)
	last := map[string]runtime.Object{}
	var bad []string
	cancel := f.cluster.SubscribeChanges(func(ev watch.Event, prev runtime.Object) {
		name := metaName(ev.Object)
		want := last[name]
		if ev.Type == watch.Added {
			want = nil
		}
		if !reflect.DeepEqual(prev, want) || (ev.Type != watch.Added && prev == nil) {
			bad = append(bad, fmt.Sprintf("%s %s: replaced %#v, want %#v", ev.Type, name, prev, want))
		}
		last[name] = ev.Object.DeepCopyObject()
	})
	defer cancel()
	events := f.client.CoreV1().Events("default")
	e := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "web.1", Namespace: "default"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "web", UID: "ffffffff-0000-4000-8000-123456789abc"},
		Reason:         "Pulled", Message: "pulled", Type: corev1.EventTypeNormal, Count: 1,
		FirstTimestamp: metav1.NewTime(epoch), LastTimestamp: metav1.NewTime(epoch),
	}
	if _, err := events.Create(ctx, e, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := events.Patch(ctx, "web.1", types.StrategicMergePatchType, []byte(`{"count":2}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := events.Delete(ctx, "web.1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "default"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	if len(last) != 2 {
		t.Errorf("saw changes of %d objects, want the event and the config map", len(last))
	}
}

func metaName(obj runtime.Object) string {
	m, _ := meta.Accessor(obj)
	return m.GetName()
}
