// Package controltest runs one controller for its package's tests the way a
// runner would: a fake clientset stands for the API, one indexer per watched
// kind stands for the informers' caches, and the controller gets a recording
// work queue, a recording event sink and a hand-driven clock.
//
// A test decides when the caches catch up with the API (Observe), or seeds
// them directly, as sample-controller's tests do (New, Add, Update, Delete).
// Writes the harness makes stand for the rest of the cluster: they go
// straight to the fake API's object tracker, so the client's recorded actions
// stay the controller's own. Only tests import this package.
package controltest

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"rollscope/engine/control"
)

// Start is where the harness clock starts. A test that needs another time
// sets Clock before the controller reads it.
var Start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Harness is one controller's world: the API, the caches and what the
// controller asked of its queue and event sink. It is driven from the test's
// goroutine only.
type Harness struct {
	T      testing.TB
	Client *fake.Clientset
	Clock  *clocktesting.FakePassiveClock
	Queue  *Queue
	Events *Events
	// Env is what the controller is built with: the client, the listers on
	// the harness's caches (every kind), the clock, the events and a
	// reproducible Rand.
	Env *control.Env
	// Handlers are the watched controller's event handlers, set by Watch.
	// The harness calls them for every change it makes to a cache.
	Handlers map[control.Kind]cache.ResourceEventHandler

	indexers   map[control.Kind]cache.Indexer
	controller control.Controller
	// versions is the last resourceVersion Observe handed out: the fake API
	// does not bump them, and controllers ignore updates that keep one.
	versions int
}

// New returns a harness whose API and caches both hold objects, as if the
// informers had synced before the controller started. Objects of a kind no
// controller watches (a ConfigMap, say) go to the API only.
func New(t testing.TB, objects ...runtime.Object) *Harness {
	t.Helper()
	clock := clocktesting.NewFakePassiveClock(Start)
	h := &Harness{
		T:        t,
		Client:   fake.NewSimpleClientset(),
		Clock:    clock,
		Queue:    newQueue(clock),
		Events:   &Events{},
		indexers: map[control.Kind]cache.Indexer{},
	}
	for _, k := range control.AllKinds {
		h.indexers[k] = cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(k))
	}
	h.Env = newEnv(h)
	for _, obj := range objects {
		h.Add(obj)
	}
	return h
}

// Indexer is the cache of kind.
func (h *Harness) Indexer(kind control.Kind) cache.Indexer {
	h.T.Helper()
	ix, ok := h.indexers[kind]
	if !ok {
		h.T.Fatalf("the harness has no cache of %q: it keeps one for each of control.AllKinds", kind)
	}
	return ix
}

// Watch registers c's handlers on the harness's queue, as a runner does
// before it starts c. From then on cache changes reach c, and RunUntil syncs
// it.
func (h *Harness) Watch(c control.Controller) {
	h.controller = c
	h.Handlers = c.Watches(h.Queue)
}

// AddToAPI puts objects in the API only, as another client would create
// them: the caches see them at the next Observe.
func (h *Harness) AddToAPI(objects ...runtime.Object) {
	h.T.Helper()
	for _, obj := range objects {
		if err := h.Client.Tracker().Add(obj); err != nil {
			h.T.Fatalf("add %s to the fake API: %v", describe(obj), err)
		}
	}
}

// Names lists the names of every object of kind in the API, sorted: what a
// test asserts on once the controller has created or removed some. The list
// is among the client's actions, as a typed List would be.
func (h *Harness) Names(kind control.Kind) []string {
	h.T.Helper()
	var out []string
	for _, obj := range h.list(kind) {
		out = append(out, obj.(metav1.Object).GetName())
	}
	sort.Strings(out)
	return out
}

// Add puts obj in the API and in its cache, and tells the watched
// controller.
func (h *Harness) Add(obj runtime.Object) {
	h.T.Helper()
	h.AddToAPI(obj)
	kind, ok := h.kindOf(obj)
	if !ok {
		return
	}
	if err := h.indexers[kind].Add(obj); err != nil {
		h.T.Fatalf("add %s to the %s cache: %v", describe(obj), kind, err)
	}
	if hd := h.Handlers[kind]; hd != nil {
		hd.OnAdd(obj, false)
	}
}

// Update replaces obj in the API and in its cache, and tells the watched
// controller what it was before.
func (h *Harness) Update(obj runtime.Object) {
	h.T.Helper()
	gvr, m := h.resourceOf(obj)
	if err := h.Client.Tracker().Update(gvr, obj, m.GetNamespace()); err != nil {
		h.T.Fatalf("update %s in the fake API: %v", describe(obj), err)
	}
	kind, ok := h.kindOf(obj)
	if !ok {
		return
	}
	old, existed, _ := h.indexers[kind].Get(obj)
	if err := h.indexers[kind].Update(obj); err != nil {
		h.T.Fatalf("update %s in the %s cache: %v", describe(obj), kind, err)
	}
	switch hd := h.Handlers[kind]; {
	case hd == nil:
	case existed:
		hd.OnUpdate(old, obj)
	default:
		hd.OnAdd(obj, false)
	}
}

// Delete removes obj from the API and from its cache, and tells the watched
// controller.
func (h *Harness) Delete(obj runtime.Object) {
	h.T.Helper()
	gvr, m := h.resourceOf(obj)
	if err := h.Client.Tracker().Delete(gvr, m.GetNamespace(), m.GetName()); err != nil {
		h.T.Fatalf("delete %s from the fake API: %v", describe(obj), err)
	}
	kind, ok := h.kindOf(obj)
	if !ok {
		return
	}
	if err := h.indexers[kind].Delete(obj); err != nil {
		h.T.Fatalf("delete %s from the %s cache: %v", describe(obj), kind, err)
	}
	if hd := h.Handlers[kind]; hd != nil {
		hd.OnDelete(obj)
	}
}

// resourceOf is the API resource obj is stored under, found the way the
// fake API's tracker finds it.
func (h *Harness) resourceOf(obj runtime.Object) (schema.GroupVersionResource, metav1.Object) {
	h.T.Helper()
	m, err := meta.Accessor(obj)
	if err != nil {
		h.T.Fatalf("%T is not an API object: %v", obj, err)
	}
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		h.T.Fatalf("%T is not a type client-go's scheme knows: %v", obj, err)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	return gvr, m
}

// kindOf is the cached kind obj belongs to; false for a kind no controller
// watches.
func (h *Harness) kindOf(obj runtime.Object) (control.Kind, bool) {
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return "", false
	}
	for _, gvk := range gvks {
		for kind, listed := range apiKinds {
			if listed == gvk {
				return kind, true
			}
		}
	}
	return "", false
}

// describe names obj in failure messages.
func describe(obj runtime.Object) string {
	return fmt.Sprintf("%T %s", obj, control.Key(obj))
}
