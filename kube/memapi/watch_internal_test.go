package memapi

import (
	"context"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
)

func TestServedKindsAreRegistered(t *testing.T) {
	for _, k := range servedKinds() {
		if k.newObject() == nil || k.newList() == nil {
			t.Errorf("%s: object or list type missing from client-go's scheme", k.gvk)
		}
		if !k.custom && (k.status || k.scale || k.generation) && !part(k.newObject(), "Spec").IsValid() {
			t.Errorf("%s: spec/status rules configured on a kind without a spec", k.gvk)
		}
	}
}

func TestWatchFromTrimmedHistoryIsGone(t *testing.T) {
	c := newCluster(Options{}, 3)
	cms := c.Client().CoreV1().ConfigMaps("default")
	ctx := context.Background()
	for i := range 5 {
		if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: strconv.Itoa(i)}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// Changes 4..8 happened; the last 3 (6, 7, 8) are kept.
	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: "4"})
	if err != nil {
		t.Fatal(err)
	}
	ev := <-w.ResultChan()
	if err := apierrors.FromObject(ev.Object); ev.Type != watch.Error || !apierrors.IsResourceExpired(err) || err.Error() != "too old resource version: 4 (5)" {
		t.Fatalf("got %s %v, want 410 too old resource version", ev.Type, err)
	}
	if _, open := <-w.ResultChan(); open {
		t.Fatal("the stream must end after the error")
	}

	w, err = cms.Watch(ctx, metav1.ListOptions{ResourceVersion: "5"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for _, want := range []string{"2", "3", "4"} {
		if ev := <-w.ResultChan(); ev.Type != watch.Added || ev.Object.(*corev1.ConfigMap).Name != want {
			t.Fatalf("replay: got %s %v, want ADDED %s", ev.Type, ev.Object, want)
		}
	}
}

// A watcher nobody reads must hold any number of events without blocking
// the writer, and then deliver every one in order.
func TestWatcherQueueIsUnbounded(t *testing.T) {
	flt, err := newFilter(&kind{namespaced: true}, "", labels.Everything(), nil)
	if err != nil {
		t.Fatal(err)
	}
	w := newWatcher(flt)
	defer w.Stop()
	const n = 100_000
	obj := &corev1.Pod{}
	for i := range n {
		w.push(watch.Added, obj)
		if i == n/2 {
			<-w.ResultChan() // a consumer that reads once in a while
		}
	}
	for i := 1; i < n; i++ {
		select {
		case ev := <-w.ResultChan():
			if ev.Object == obj {
				t.Fatal("watchers must send copies of stored objects")
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("event %d of %d never arrived", i, n)
		}
	}
}
