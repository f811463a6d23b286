package watch

import (
	"context"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
)

// PodNamespaces is a cluster-wide console's say in whose pods its bridge
// watches. The fleet of every namespace reads a pod only to name what holds
// a row (a crash loop, an image that cannot be pulled, pods that fit
// nowhere) or to see pods move off a drained node, and on a cluster where
// hundreds of workloads roll at once receiving every pod is most of what
// the fleet costs; a workload's page reads its own namespace's. A bridge
// given one (Options.Pods) watches no pods until the console asks, then
// each asked namespace in a watch of its own, or every namespace in one.
// With a pod detail's handle as well (PodEvents), the events about objects
// other than pods — the Deployments' and ReplicaSets' Normal ones, which
// only a workload's timeline shows — come with each namespace's pods; pods'
// Warnings, which tell the console where to look, come from the start.
//
// What is watched only widens: a namespace once listed stays watched, and
// every namespace once asked for replaces them all. Narrowing would list
// the same pods again each time the operator came back, and a console that
// opened a workload has paid for its pods already.
type PodNamespaces struct {
	mu   sync.Mutex
	all  bool
	want []string // sorted
	wake chan struct{}
}

// NewPodNamespaces is a console's handle on one bridge's pod watches.
func NewPodNamespaces() *PodNamespaces { return &PodNamespaces{wake: make(chan struct{}, 1)} }

// Want asks for every namespace's pods (all), or for these namespaces'
// besides those asked for before. A nil handle's watch brings every pod in
// scope already: asking it changes nothing.
func (p *PodNamespaces) Want(all bool, namespaces ...string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	wider := all && !p.all
	for _, ns := range namespaces {
		if i, found := slices.BinarySearch(p.want, ns); !found {
			p.want = slices.Insert(p.want, i, ns)
			wider = true
		}
	}
	p.all = p.all || all
	p.mu.Unlock()
	if !wider {
		return
	}
	select {
	case p.wake <- struct{}{}:
	default: // the bridge has yet to take the last wish; it reads this one
	}
}

func (p *PodNamespaces) wanted() (all bool, namespaces []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.all, slices.Clone(p.want)
}

// podWatches are a bridge's pod sources while the console chooses them,
// owned by Run's goroutine as the pump is.
type podWatches struct {
	// rank is where pods come in a batch, kept for them at New.
	rank int
	// of is the list and watch of one namespace's pods ("": all).
	of func(ns string) func(*source) cache.ListerWatcher
	// transform is the pods' (New's), the same for each.
	transform cache.TransformFunc
	byNS      map[string]*watched
	all       *watched
	// withPods are the sources started with a namespace's pods, or every
	// namespace's: what only a workload's page reads (its timeline's
	// events about the Deployment and its ReplicaSets), which the fleet
	// does not.
	withPods []later
}

// later is a source made when it is started, of one namespace or every
// one ("").
type later struct {
	kind      string
	obj       runtime.Object
	transform cache.TransformFunc
	watchIn   func(ns string) func(*source) cache.ListerWatcher
}

// watched is one running pod source, and the sources started with it
// (withPods).
type watched struct {
	src    *source
	with   []*source
	cancel context.CancelFunc
}

// synced reports whether w and the sources started with it have listed.
func (w *watched) synced() bool {
	if !w.src.feed.synced.Load() {
		return false
	}
	for _, s := range w.with {
		if !s.feed.synced.Load() {
			return false
		}
	}
	return true
}

// mostNamespaceWatches is how many namespaces' pods are watched one by
// one: each is a connection of its own to the API server (the pods'
// HTTP/1.1, podclient.go), and past a handful one watch of every
// namespace costs the server and the console less.
const mostNamespaceWatches = 8

// widenPods starts the pod watches the console asked for since the last
// call: each new namespace's, or every namespace's.
func (b *Bridge) widenPods(ctx context.Context, watching *sync.WaitGroup) {
	pw := b.podWatches
	all, namespaces := b.pods.wanted()
	if pw.all != nil {
		return
	}
	if all || len(namespaces) > mostNamespaceWatches {
		pw.all = b.startPods(ctx, watching, "")
		return
	}
	for _, ns := range namespaces {
		if pw.byNS[ns] == nil {
			pw.byNS[ns] = b.startPods(ctx, watching, ns)
		}
	}
}

func (b *Bridge) startPods(ctx context.Context, watching *sync.WaitGroup, ns string) *watched {
	pw := b.podWatches
	s := b.newSource("Pod", &corev1.Pod{}, pw.transform, pw.of(ns))
	s.rank = pw.rank
	ctx, cancel := context.WithCancel(ctx)
	b.start(ctx, watching, s)
	w := &watched{src: s, cancel: cancel}
	for _, l := range pw.withPods {
		with := b.newSource(l.kind, l.obj, l.transform, l.watchIn(ns))
		b.start(ctx, watching, with)
		w.with = append(w.with, with)
	}
	return w
}

// start runs s among the bridge's sources, in its kind's place in a batch.
func (b *Bridge) start(ctx context.Context, watching *sync.WaitGroup, s *source) {
	if first := b.byKind[s.kind]; len(first) > 0 {
		s.rank = first[0].rank
	}
	b.sources = append(b.sources, s)
	b.byKind[s.kind] = append(b.byKind[s.kind], s)
	watching.Go(func() { s.run(ctx) })
}

// podsStatus is the watch status's word on the pods while the console
// chooses them. Once every namespace's watches have listed, the
// namespaces' own watches stop: their objects are all in them.
func (b *Bridge) podsStatus() {
	pw := b.podWatches
	if pw == nil {
		return
	}
	if a := pw.all; a != nil && a.synced() {
		for ns, w := range pw.byNS {
			for _, s := range append([]*source{w.src}, w.with...) {
				b.dropSource(s)
			}
			w.cancel()
			delete(pw.byNS, ns)
		}
		b.status.PodsNarrowed, b.status.PodNamespaces = false, ""
		return
	}
	var held []string
	for ns, w := range pw.byNS {
		if w.synced() {
			held = append(held, ns)
		}
	}
	slices.Sort(held)
	b.status.PodsNarrowed, b.status.PodNamespaces = true, strings.Join(held, ",")
	if pw.all != nil && b.status.Synced {
		// Every pod is listing: until it has come, the picture has only
		// the namespaces' pods it had, and says so as it does before the
		// first list.
		b.status.Synced = false
	}
}

// dropSource takes s out of the bridge's sources; its objects stay in the
// picture while another source holds them.
func (b *Bridge) dropSource(s *source) {
	b.sources = slices.DeleteFunc(b.sources, func(x *source) bool { return x == s })
	b.byKind[s.kind] = slices.DeleteFunc(b.byKind[s.kind], func(x *source) bool { return x == s })
	s.feed.markHeld()
}

// ChoosingPods is t watching only the pods the console asks for, and the
// console's handle for asking — when t watches every namespace; a
// namespace's watch brings all its pods, and the handle is nil.
func (t Target) ChoosingPods() (Target, *PodNamespaces) {
	if t.Scope.Namespace != "" {
		return t, nil
	}
	p := NewPodNamespaces()
	t.Options.Pods = p
	return t, p
}
