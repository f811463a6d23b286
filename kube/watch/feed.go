package watch

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"rollscope/model/cluster"
)

// feed is the store a kind's reflector writes into: it keeps the kind's cache
// and marks each changed object dirty, on the reflector's own goroutine.
//
// A shared informer would hand each watch event on three more times — to its
// queue's goroutine, then to each handler's two goroutines — before a handler
// only marks a name dirty: on a cluster in a rollout, that is a few hundred
// goroutine wake-ups a second, which cost the console more than decoding the
// events. Here an event goes from the watch stream's decoder to the
// reflector, and from there straight into the cache and the dirty set.
//
// The cache is a map by namespace and name, the pump's only question of it:
// client-go's indexer would build a "namespace/name" string for every event,
// twice (to read the version held, then to store).
type feed struct {
	mu        sync.RWMutex
	held      map[objectName]any
	transform cache.TransformFunc // nil keeps objects as decoded
	src       *source
	dirty     *dirtySet
	synced    atomic.Bool // the first full list is in the cache
}

// objectName is an object's key in a feed.
type objectName struct{ namespace, name string }

func nameOf(obj any) (objectName, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return objectName{}, fmt.Errorf("the watch sent a %T, which has no name", obj)
	}
	return objectName{m.GetNamespace(), m.GetName()}, nil
}

func newFeed(s *source, dirty *dirtySet, transform cache.TransformFunc) *feed {
	return &feed{held: map[objectName]any{}, transform: transform, src: s, dirty: dirty}
}

func (f *feed) trimmed(obj any) (any, error) {
	if f.transform == nil {
		return obj, nil
	}
	return f.transform(obj)
}

// get is the object's current state.
func (f *feed) get(n objectName) (any, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	obj, ok := f.held[n]
	return obj, ok
}

func (f *feed) mark(n objectName) {
	f.dirty.mark(cluster.ObjectRef{Kind: f.src.kind, Namespace: n.namespace, Name: n.name})
}

// Add and Update store an object from the watch; an object the cache holds
// at the same resourceVersion is no change worth a batch.
func (f *feed) Add(obj any) error    { return f.put(obj) }
func (f *feed) Update(obj any) error { return f.put(obj) }

func (f *feed) put(obj any) error {
	obj, n, err := f.named(obj)
	if err != nil {
		return err
	}
	f.src.alive()
	f.mu.Lock()
	old, held := f.held[n]
	f.held[n] = obj
	f.mu.Unlock()
	if !held || !sameVersion(old, obj) {
		f.mark(n)
	}
	return nil
}

// named is obj trimmed for the cache, and its name.
func (f *feed) named(obj any) (any, objectName, error) {
	obj, err := f.trimmed(obj)
	if err != nil {
		return nil, objectName{}, err
	}
	n, err := nameOf(obj)
	return obj, n, err
}

func (f *feed) Delete(obj any) error {
	n, err := nameOf(obj)
	if err != nil {
		return err
	}
	f.src.alive()
	f.mu.Lock()
	delete(f.held, n)
	f.mu.Unlock()
	f.mark(n)
	return nil
}

// Replace takes a full list (the first, or a relist after the watch was
// lost): what the cache held and the list lacks was deleted meanwhile, and
// only what is new or at a new resourceVersion changed.
func (f *feed) Replace(list []any, _ string) error {
	f.src.alive()
	listed := make(map[objectName]any, len(list))
	for _, obj := range list {
		obj, n, err := f.named(obj)
		if err != nil {
			return err
		}
		listed[n] = obj
	}
	f.mu.Lock()
	before := f.held
	f.held = listed
	f.mu.Unlock()
	for n, obj := range listed {
		if old, held := before[n]; !held || !sameVersion(old, obj) {
			f.mark(n)
		}
	}
	for n := range before {
		if _, ok := listed[n]; !ok {
			f.mark(n)
		}
	}
	f.synced.Store(true)
	return nil
}

// markHeld marks every object the cache holds: a source dropped from the
// bridge (a pod detail's watch, eventwatches.go) whose objects must leave
// the picture, which the pump reports as deleted once no source holds them.
func (f *feed) markHeld() {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for n := range f.held {
		f.mark(n)
	}
}

// Resync is asked only of reflectors with a resync period; the bridge's
// have none.
func (f *feed) Resync() error { return nil }

func sameVersion(old, obj any) bool {
	o, ok := old.(metav1.Object)
	if !ok {
		return false
	}
	n, ok := obj.(metav1.Object)
	return ok && o.GetResourceVersion() == n.GetResourceVersion()
}

// reflectorBackoff is client-go's reflector's own: 0.8 s doubling to 30 s,
// jittered, forgotten after two minutes of a healthy watch.
var reflectorBackoff = wait.Backoff{
	Duration: 800 * time.Millisecond,
	Cap:      30 * time.Second,
	Steps:    int(math.Ceil(float64(30*time.Second) / float64(800*time.Millisecond))),
	Factor:   2.0,
	Jitter:   1.0,
}

// run lists and watches until ctx ends, as the reflector's RunWithContext
// does, but with every failure told to the source, as a shared informer's
// watch error handler is.
func (s *source) run(ctx context.Context) {
	_ = reflectorBackoff.DelayWithReset(clock.RealClock{}, 2*time.Minute).Until(ctx, true, true, func(ctx context.Context) (bool, error) {
		if err := s.reflector.ListAndWatchWithContext(ctx); err != nil && ctx.Err() == nil {
			s.failed(s.reflector, err)
		}
		return false, nil
	})
}
