package watch

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// PodEvents is the pod whose detail the console shows. A bridge given one
// (Options.PodEvents) watches events in two narrower watches — everything
// not about a pod (the timeline's Deployment and ReplicaSet events, Normal
// and Warning), and pods' Warnings (the blocker line, the canary gates, the
// timeline's pod lines) — and one pod's routine (Normal) events only while
// its detail is open, as `kubectl describe pod` reads them when asked. A
// real kubelet records five Normal events for every pod it starts
// (Scheduled, Pulling, Pulled, Created, Started) and one as it stops it:
// most of a rollout's events, which nothing but the pod detail shows.
type PodEvents struct {
	mu   sync.Mutex
	want podWant
	wake chan struct{}
}

// podWant is the pod asked for, and for how long.
type podWant struct {
	ctx             context.Context
	namespace, name string
}

// NewPodEvents is a pod detail's handle on one bridge.
func NewPodEvents() *PodEvents { return &PodEvents{wake: make(chan struct{}, 1)} }

// Follow watches the pod's Normal events until ctx ends or another pod is
// followed; they come in the bridge's batches like every other event.
func (p *PodEvents) Follow(ctx context.Context, namespace, name string) {
	p.mu.Lock()
	p.want = podWant{ctx: ctx, namespace: namespace, name: name}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default: // the bridge has yet to take the last wish; it reads this one
	}
}

func (p *PodEvents) wanted() podWant {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.want
}

// The field selectors of the event watches: the three are disjoint, so an
// event is held by one source only, and together they are every event.
const (
	notAboutPods = "involvedObject.kind!=Pod"
	podWarnings  = "involvedObject.kind=Pod,type=Warning"
)

func onePodsNormalEvents(namespace, name string) string {
	return fields.AndSelectors(
		fields.OneTermEqualSelector("involvedObject.kind", "Pod"),
		fields.OneTermEqualSelector("involvedObject.namespace", namespace),
		fields.OneTermEqualSelector("involvedObject.name", name),
		fields.OneTermNotEqualSelector("type", corev1.EventTypeWarning),
	).String()
}

// addEvents watches the namespace's events: all in one watch without a
// PodEvents, else pods' Normal ones left out. A console that chooses whose
// pods it watches (podscope.go) has the events about other objects — the
// Deployments' and ReplicaSets' Normal ones, which only a workload's
// timeline shows — with each namespace's pods, or every namespace's.
func (b *Bridge) addEvents(client kubernetes.Interface, ns string, narrow bool) {
	if !narrow {
		b.add("Event", &corev1.Event{}, trim, eventsWhere(client, ns, ""))
		return
	}
	b.add("Event", &corev1.Event{}, trim, eventsWhere(client, ns, podWarnings))
	if pw := b.podWatches; pw != nil {
		pw.withPods = append(pw.withPods, later{"Event", &corev1.Event{}, trim, func(in string) func(*source) cache.ListerWatcher {
			return eventsWhere(client, in, notAboutPods)
		}})
		return
	}
	b.add("Event", &corev1.Event{}, trim, eventsWhere(client, ns, notAboutPods))
}

// eventsWhere lists and watches the namespace's events that selector
// picks ("": all).
func eventsWhere(client kubernetes.Interface, ns, selector string) func(*source) cache.ListerWatcher {
	return func(s *source) cache.ListerWatcher {
		var c calls[*corev1.EventList] = client.CoreV1().Events(ns)
		if selector != "" {
			c = selected[*corev1.EventList]{c, selector}
		}
		return observed(s, c, client)
	}
}

// selected is c's list and watch of what selector picks.
type selected[L runtime.Object] struct {
	calls[L]
	selector string
}

func (c selected[L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	opts.FieldSelector = c.selector
	return c.calls.List(ctx, opts)
}

func (c selected[L]) Watch(ctx context.Context, opts metav1.ListOptions) (apiwatch.Interface, error) {
	opts.FieldSelector = c.selector
	return c.calls.Watch(ctx, opts)
}

// following is the followed pod's watch, run by the bridge's loop.
type following struct {
	src    *source
	cancel context.CancelFunc
}

// follow starts watching the pod asked for, after stopping the watch of
// the one before; it returns when the new wish ends (nil: nothing
// followed). It runs on Run's goroutine, as the pump does, so the pump
// reads the followed source without a lock.
func (b *Bridge) follow(ctx context.Context, watching *sync.WaitGroup) <-chan struct{} {
	b.unfollow()
	w := b.podEvents.wanted()
	if w.ctx == nil || w.ctx.Err() != nil {
		return nil
	}
	s := b.newSource("Event", &corev1.Event{}, trim, eventsWhere(b.client, w.namespace, onePodsNormalEvents(w.namespace, w.name)))
	s.rank = b.byKind["Event"][0].rank
	ctx, cancel := context.WithCancel(ctx)
	b.followed = &following{src: s, cancel: cancel}
	watching.Go(func() { s.run(ctx) })
	return w.ctx.Done()
}

// unfollow stops the followed pod's watch: the events it brought are gone
// from the picture in the next batch, as the pod detail that asked closed.
func (b *Bridge) unfollow() {
	f := b.followed
	if f == nil {
		return
	}
	b.followed = nil
	f.cancel()
	f.src.feed.markHeld()
}

// Describing is t watching pods' Normal events only for the pod the handle
// follows, and the handle, for the console's pod detail (ui.Options).
func (t Target) Describing() (Target, *PodEvents) {
	pe := NewPodEvents()
	t.Options.PodEvents = pe
	return t, pe
}
