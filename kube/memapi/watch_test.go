package memapi_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// hangGuard only stops a broken test from hanging; nothing is timed.
const hangGuard = 10 * time.Second

func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return ev
	case <-time.After(hangGuard):
		t.Fatal("no event")
	}
	return watch.Event{}
}

// describe renders an event as "TYPE name@rv".
func describe(ev watch.Event) string {
	m, ok := ev.Object.(metav1.Object)
	if !ok {
		return fmt.Sprintf("%s %T", ev.Type, ev.Object)
	}
	return fmt.Sprintf("%s %s@%s", ev.Type, m.GetName(), m.GetResourceVersion())
}

func expect(t *testing.T, w watch.Interface, want ...string) {
	t.Helper()
	for _, wantEv := range want {
		if got := describe(next(t, w)); got != wantEv {
			t.Fatalf("got %s, want %s", got, wantEv)
		}
	}
}

func expectQuiet(t *testing.T, w watch.Interface) {
	t.Helper()
	select {
	case ev := <-w.ResultChan():
		t.Fatalf("unexpected event %s", describe(ev))
	default:
	}
}

func TestWatchFromNowSendsTheCurrentStateFirst(t *testing.T) {
	f := newFixture(t)
	pods := f.client.CoreV1().Pods("default")
	must(pods.Create(ctx, pod("b", "x"), metav1.CreateOptions{}))(t)
	must(pods.Create(ctx, pod("a", "x"), metav1.CreateOptions{}))(t)
	for _, rv := range []string{"", "0"} {
		w := must(pods.Watch(ctx, metav1.ListOptions{ResourceVersion: rv}))(t)
		expect(t, w, "ADDED a@5", "ADDED b@4")
		w.Stop()
	}
	w := must(pods.Watch(ctx, metav1.ListOptions{}))(t)
	defer w.Stop()
	expect(t, w, "ADDED a@5", "ADDED b@4")
	noErr(t, pods.Delete(ctx, "b", metav1.DeleteOptions{}))
	expect(t, w, "DELETED b@6")
}

func TestWatchResumesFromAResourceVersion(t *testing.T) {
	f := newFixture(t)
	cms := f.client.CoreV1().ConfigMaps("default")
	must(cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "old"}}, metav1.CreateOptions{}))(t)
	list := must(cms.List(ctx, metav1.ListOptions{}))(t)

	cm := must(cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{}))(t)
	cm.Data = map[string]string{"a": "b"}
	must(cms.Update(ctx, cm, metav1.UpdateOptions{}))(t)
	noErr(t, cms.Delete(ctx, "old", metav1.DeleteOptions{}))

	w := must(cms.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion}))(t)
	defer w.Stop()
	expect(t, w, "ADDED c@5", "MODIFIED c@6", "DELETED old@7")
	expectQuiet(t, w)

	// A resourceVersion from the future is refused the way the server does.
	future := must(cms.Watch(ctx, metav1.ListOptions{ResourceVersion: "999"}))(t)
	ev := next(t, future)
	if err := apierrors.FromObject(ev.Object); ev.Type != watch.Error || !apierrors.IsTimeout(err) || !apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
		t.Fatalf("watch from the future: %s %v", ev.Type, err)
	}
	if _, ok := <-future.ResultChan(); ok {
		t.Fatal("an error event must end the watch")
	}
}

func TestWatchSelectorsFollowObjectsInAndOut(t *testing.T) {
	f := newFixture(t)
	pods := f.client.CoreV1().Pods("default")
	byLabel := must(pods.Watch(ctx, metav1.ListOptions{LabelSelector: "app=a"}))(t)
	defer byLabel.Stop()
	byNode := must(pods.Watch(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=n1"}))(t)
	defer byNode.Stop()

	p := must(pods.Create(ctx, pod("p", "b"), metav1.CreateOptions{}))(t) // rv 4: matches neither
	p.Labels["app"] = "a"
	p = must(pods.Update(ctx, p, metav1.UpdateOptions{}))(t) // rv 5: enters app=a
	p.Annotations = map[string]string{"x": "y"}
	must(pods.Update(ctx, p, metav1.UpdateOptions{}))(t) // rv 6: stays
	noErr(t, pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}, Target: corev1.ObjectReference{Name: "n1"}}, metav1.CreateOptions{}))
	p = must(pods.Get(ctx, "p", metav1.GetOptions{}))(t) // rv 7: enters nodeName=n1
	p.Labels["app"] = "c"
	must(pods.Update(ctx, p, metav1.UpdateOptions{}))(t) // rv 8: leaves app=a
	noErr(t, pods.Delete(ctx, "p", metav1.DeleteOptions{GracePeriodSeconds: ptr[int64](0)}))

	expect(t, byLabel, "ADDED p@5", "MODIFIED p@6", "MODIFIED p@7", "DELETED p@8")
	expect(t, byNode, "ADDED p@7", "MODIFIED p@8", "DELETED p@9")
	expectQuiet(t, byLabel)
}

func TestWatchIsScopedToItsNamespace(t *testing.T) {
	f := newFixture(t)
	w := must(f.client.CoreV1().ConfigMaps("kube-system").Watch(ctx, metav1.ListOptions{}))(t)
	defer w.Stop()
	all := must(f.client.CoreV1().ConfigMaps("").Watch(ctx, metav1.ListOptions{}))(t)
	defer all.Stop()
	must(f.client.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "d"}}, metav1.CreateOptions{}))(t)
	must(f.client.CoreV1().ConfigMaps("kube-system").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "k"}}, metav1.CreateOptions{}))(t)
	expect(t, w, "ADDED k@5")
	expect(t, all, "ADDED d@4", "ADDED k@5")
}

func TestWatchListSendsInitialEventsThenABookmark(t *testing.T) {
	f := newFixture(t)
	pods := f.client.CoreV1().Pods("default")
	must(pods.Create(ctx, pod("a", "x"), metav1.CreateOptions{}))(t)
	must(pods.Create(ctx, pod("b", "x"), metav1.CreateOptions{}))(t)

	yes := true
	w := must(pods.Watch(ctx, metav1.ListOptions{SendInitialEvents: &yes, AllowWatchBookmarks: true, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}))(t)
	defer w.Stop()
	expect(t, w, "ADDED a@4", "ADDED b@5")
	bm := next(t, w)
	m := bm.Object.(metav1.Object)
	if bm.Type != watch.Bookmark || m.GetResourceVersion() != "5" || m.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" {
		t.Fatalf("end of initial events: %s rv %s annotations %v", bm.Type, m.GetResourceVersion(), m.GetAnnotations())
	}
	must(pods.Create(ctx, pod("c", "x"), metav1.CreateOptions{}))(t)
	expect(t, w, "ADDED c@6")

	_, err := pods.Watch(ctx, metav1.ListOptions{SendInitialEvents: &yes})
	if want := `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`; err == nil || err.Error() != want {
		t.Fatalf("watch-list without resourceVersionMatch: %v", err)
	}
}

func TestWatchBookmarkCarriesTheCurrentResourceVersion(t *testing.T) {
	f := newFixture(t)
	cms := f.client.CoreV1().ConfigMaps("default")
	must(cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{}))(t)
	must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "x"), metav1.CreateOptions{}))(t)
	w := must(cms.Watch(ctx, metav1.ListOptions{ResourceVersion: "4", AllowWatchBookmarks: true}))(t)
	defer w.Stop()
	ev := next(t, w)
	if ev.Type != watch.Bookmark || ev.Object.(metav1.Object).GetResourceVersion() != "5" {
		t.Fatalf("got %s, want a bookmark at rv 5", describe(ev))
	}
}

func TestWatchStopIsIdempotentAndClosesTheChannel(t *testing.T) {
	f := newFixture(t)
	w := must(f.client.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{}))(t)
	w.Stop()
	w.Stop()
	for range w.ResultChan() {
	}
	// Writes after Stop are fine and go nowhere.
	must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "x"), metav1.CreateOptions{}))(t)
}

func TestWatchedObjectsAreCopies(t *testing.T) {
	f := newFixture(t)
	w1 := must(f.client.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{}))(t)
	defer w1.Stop()
	w2 := must(f.client.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{}))(t)
	defer w2.Stop()
	must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "x"), metav1.CreateOptions{}))(t)
	got1 := next(t, w1).Object.(*corev1.Pod)
	got1.Labels["app"] = "modified by a transform"
	got2 := next(t, w2).Object.(*corev1.Pod)
	stored := must(f.client.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{}))(t)
	if got2.Labels["app"] != "x" || stored.Labels["app"] != "x" {
		t.Fatalf("one consumer's change leaked: other watcher %v, store %v", got2.Labels, stored.Labels)
	}
}
