package watch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"rollscope/model/cluster"
)

// Scope is what the console watches.
type Scope struct {
	// Namespace limits the namespaced kinds to one namespace; "" watches
	// all namespaces. Nodes are always watched cluster-wide.
	Namespace string
}

// ScopeOf is what a console watches: every namespace with all (-A), else
// namespace.
func ScopeOf(namespace string, all bool) Scope {
	if all {
		return Scope{}
	}
	return Scope{Namespace: namespace}
}

// Options tunes a Bridge.
type Options struct {
	// Interval is the least time between two batches; 0 means
	// DefaultInterval, at most 20 batches a second.
	Interval time.Duration
	// Probe asks the API server whether it answers (ReadyzProbe); nil
	// asks nothing, as for the embedded cluster, which cannot freeze.
	Probe Probe
	// Config is the REST config client was made from, for a live cluster:
	// pods are then listed and watched through a client that decodes only
	// the fields the console reads (podwire.go). nil decodes pods whole and
	// slims them afterwards, as for the embedded cluster, which sends
	// objects without encoding them.
	Config *rest.Config
	// Cluster is the kubeconfig context every batch is stamped with
	// (cluster.Batch.Cluster), for a console that watches several.
	Cluster string
	// PodEvents is the console's pod detail's handle: given one, the
	// bridge watches pods' Normal events only for the pod it follows
	// (eventwatches.go). nil watches every event, as a recording keeps them.
	PodEvents *PodEvents
	// Pods is a cluster-wide console's handle on whose pods are watched
	// (podscope.go): given one with Scope.Namespace "", the bridge watches
	// only the pods the console asks for. nil watches every pod in scope.
	Pods *PodNamespaces
}

// DefaultInterval keeps the screen at most 20 updates a second behind the
// cluster without redrawing it faster than anyone can read.
const DefaultInterval = 50 * time.Millisecond

// restInterval is how often a resting pump looks at failing watches
// although nothing woke it: a watch that came back without any object
// changing clears its problem only when looked at.
const restInterval = time.Second

// firstBatchWait is how long the first batch waits for the caches to sync
// before it is sent anyway, with Synced false, so that the screen can say it
// is waiting for the cluster rather than stay blank.
const firstBatchWait = time.Second

// Bridge turns watch events into cluster.Batch messages.
type Bridge struct {
	clock    clock.PassiveClock
	send     func(cluster.Batch)
	interval time.Duration

	sources []*source // in the order batches list kinds
	// byKind is each kind's sources: one, or the two event watches
	// (eventwatches.go), which hold disjoint objects.
	byKind   map[string][]*source
	client   kubernetes.Interface
	dirty    *dirtySet
	setupErr error
	// podEvents asks for one pod's Normal events; followed is the watch of
	// them, started and stopped by Run's loop (eventwatches.go).
	podEvents *PodEvents
	followed  *following
	// pods asks for namespaces' pods; podWatches are their watches, started
	// by Run's loop (podscope.go). nil when every pod in scope is watched.
	pods       *PodNamespaces
	podWatches *podWatches
	// reserved counts the ranks kept for sources Run starts later.
	reserved int
	// addServed adds the custom resources' sources the cluster serves
	// (bridge_custom.go), once, as Run starts: asking is I/O.
	addServed func(context.Context)
	running   atomic.Bool
	// pageTimeout and pageSize shape a live cluster's lists: each page a
	// request of its own, bounded by the request timeout (firstlist.go).
	pageTimeout time.Duration
	pageSize    int64
	probe       Probe
	health      health

	// Owned by the pump.
	status    cluster.WatchStatus
	sentFirst bool
	sent      cluster.WatchStatus // the status in the last batch sent
}

// New prepares a bridge that watches scope through client and hands each
// batch to send. send is called from Run's goroutine only, one batch at a
// time; while it blocks, changes accumulate and are coalesced into the next
// batch. clk stamps the batches (the embedded cluster's virtual clock, or
// the real one); nil means the real clock.
func New(client kubernetes.Interface, scope Scope, clk clock.PassiveClock, send func(cluster.Batch), opts Options) *Bridge {
	b := &Bridge{
		clock:     clk,
		send:      send,
		interval:  opts.Interval,
		probe:     opts.Probe,
		byKind:    map[string][]*source{},
		dirty:     newDirtySet(),
		podEvents: opts.PodEvents,
	}
	if b.clock == nil {
		b.clock = clock.RealClock{}
	}
	if b.send == nil {
		b.send = func(cluster.Batch) {}
	}
	if name, send := opts.Cluster, b.send; name != "" {
		b.send = func(batch cluster.Batch) { batch.Cluster = name; send(batch) }
	}
	if b.interval <= 0 {
		b.interval = DefaultInterval
	}
	if opts.Config != nil {
		// Watches without the request timeout, lists in pages under it
		// (firstlist.go).
		var err error
		if client, b.pageTimeout, err = watching(client, opts.Config); err != nil {
			b.setupErr = err
		}
		b.pageSize = firstListPage
	}
	// Namespaces and nodes first and events last: a batch lists owners
	// before what they own. Namespaces only say whether the one the
	// console shows exists; there are few of them.
	ns := scope.Namespace
	b.add("Namespace", &corev1.Namespace{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*corev1.NamespaceList](s, client.CoreV1().Namespaces(), client)
	})
	b.add("Node", &corev1.Node{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*corev1.NodeList](s, client.CoreV1().Nodes(), client)
	})
	b.addWorkloads(client, ns)
	b.addServed = func(ctx context.Context) { b.addCustom(ctx, client, ns) }
	b.add("ReplicaSet", &appsv1.ReplicaSet{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*appsv1.ReplicaSetList](s, client.AppsV1().ReplicaSets(ns), client)
	})
	// Pods from a live cluster come slim from the wire (podwire.go), so the
	// transform has nothing left to do for them: slimming them again would
	// only copy them.
	podTrim := cache.TransformFunc(trim)
	podsIn := func(ns string) calls[*corev1.PodList] { return client.CoreV1().Pods(ns) }
	podsSeen := new(atomic.Int64)
	if opts.Config != nil {
		if slim, err := newSlimPods(opts.Config, client, ns, podsSeen); err != nil {
			b.setupErr = errors.Join(b.setupErr, err)
		} else {
			podTrim = nil
			podsIn = func(ns string) calls[*corev1.PodList] { return slim.in(ns) }
		}
	}
	podsOf := func(ns string) func(*source) cache.ListerWatcher {
		return func(s *source) cache.ListerWatcher {
			s.listed = podsSeen // the pods count themselves as they stream
			return observed(s, podsIn(ns), client)
		}
	}
	if opts.Pods != nil && ns == "" {
		// The console chooses whose pods (podscope.go); they come where
		// the pod source would have.
		b.pods = opts.Pods
		b.podWatches = &podWatches{rank: len(b.sources) + b.reserved, of: podsOf, transform: podTrim, byNS: map[string]*watched{}}
		b.reserved++
	} else {
		b.add("Pod", &corev1.Pod{}, podTrim, podsOf(ns))
	}
	b.add("PodDisruptionBudget", &policyv1.PodDisruptionBudget{}, trim, func(s *source) cache.ListerWatcher {
		return observed[*policyv1.PodDisruptionBudgetList](s, client.PolicyV1().PodDisruptionBudgets(ns), client)
	})
	b.addEvents(client, ns, opts.PodEvents != nil)
	b.client = client
	return b
}

// add watches one kind: a reflector on the list and watch that watchOf
// makes for its source, feeding the kind's cache and the dirty set.
// A kind's second source comes where its first does in a batch.
func (b *Bridge) add(kind string, obj runtime.Object, transform cache.TransformFunc, watchOf func(*source) cache.ListerWatcher) {
	s := b.newSource(kind, obj, transform, watchOf)
	if first := b.byKind[kind]; len(first) > 0 {
		s.rank = first[0].rank
	}
	b.sources = append(b.sources, s)
	b.byKind[kind] = append(b.byKind[kind], s)
}

func (b *Bridge) newSource(kind string, obj runtime.Object, transform cache.TransformFunc, watchOf func(*source) cache.ListerWatcher) *source {
	s := &source{kind: kind, rank: len(b.sources) + b.reserved, pageTimeout: b.pageTimeout, listed: new(atomic.Int64)}
	s.feed = newFeed(s, b.dirty, transform)
	s.reflector = cache.NewReflectorWithOptions(watchOf(s), obj, s.feed, cache.ReflectorOptions{Name: "rollscope " + kind})
	s.reflector.WatchListPageSize = b.pageSize
	return s
}

// Run starts the watches and sends batches until ctx is done. It stops the
// watches before it returns, and returns nil when ctx ended it. A Bridge
// runs once.
func (b *Bridge) Run(ctx context.Context) error {
	if !b.running.CompareAndSwap(false, true) {
		return errors.New("cannot run the watch bridge twice: make a new one with watch.New")
	}
	if b.setupErr != nil {
		return fmt.Errorf("cannot start watching the cluster: %w", b.setupErr)
	}
	b.addServed(ctx)
	b.status = cluster.WatchStatus{Connected: true, Since: b.clock.Now()}
	var watching sync.WaitGroup
	for _, s := range b.sources {
		watching.Go(func() { s.run(ctx) })
	}
	if b.probe != nil {
		go b.health.probeLoop(ctx, b.probe, b.dirty.poke)
	}
	defer watching.Wait() // the reflectors stop with ctx

	started := time.Now()
	// A timer reset after each pump, rather than a ticker, keeps at least an
	// Interval between batches even when send is slow. Once the picture is
	// whole and nothing changed, the pump rests: it looks again when an
	// object is marked or a watch's health moves (dirtySet.wake) — and,
	// while a watch is failing, every restInterval.
	next := time.NewTimer(b.interval)
	defer next.Stop()
	resting, pumped := false, started
	var asked <-chan struct{}
	if b.podEvents != nil {
		asked = b.podEvents.wake
	}
	var closed <-chan struct{} // the followed pod's detail closed
	var podsAsked <-chan struct{}
	if b.pods != nil {
		podsAsked = b.pods.wake
		b.widenPods(ctx, &watching) // what the console asked before Run
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-podsAsked:
			b.widenPods(ctx, &watching)
		case <-asked:
			closed = b.follow(ctx, &watching)
		case <-closed:
			b.unfollow()
			closed = nil
		case <-b.dirty.wake:
			if resting {
				// On the beat it would have looked on had it not rested,
				// not at once: the first change after a quiet spell is
				// usually the first of several (a Deployment's new
				// template, then its controller's new ReplicaSet), and
				// one batch should hold them all, as it did before.
				resting = false
				next.Reset(b.interval - time.Since(pumped)%b.interval)
			}
		case <-next.C:
			b.pump(time.Since(started) >= firstBatchWait)
			pumped = time.Now()
			resting = b.sentFirst && b.status.Synced && b.status == b.sent && b.dirty.rest()
			switch {
			case !resting:
				next.Reset(b.interval)
			case b.status.Problem != "" || b.status.Forbidden != "":
				next.Reset(restInterval)
			default:
				next.Stop() // healthy and quiet: only a wake-up moves it
			}
		}
	}
}

// Target is one cluster to watch: through which client, what, and how.
type Target struct {
	Client  kubernetes.Interface
	Scope   Scope
	Options Options
}

// RunEach watches every target at once, each with its own bridge, until
// ctx ends, handing every batch to send (each stamped with its target's
// Options.Cluster). A bridge that stops with an error sends one batch
// saying why, for its cluster alone.
func RunEach(ctx context.Context, clk clock.PassiveClock, send func(cluster.Batch), targets ...Target) {
	for _, t := range targets {
		bridge := New(t.Client, t.Scope, clk, send, t.Options)
		go func() {
			if err := bridge.Run(ctx); err != nil {
				send(cluster.Batch{Cluster: t.Options.Cluster, Watch: cluster.WatchStatus{Problem: err.Error()}})
			}
		}()
	}
}
