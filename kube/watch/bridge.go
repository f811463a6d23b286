package watch

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"rollscope/model"
)

// Scope is what the console watches.
type Scope struct {
	// Namespace limits the namespaced kinds to one namespace; "" watches
	// all namespaces. Nodes are always watched cluster-wide.
	Namespace string
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
}

// DefaultInterval keeps the screen at most 20 updates a second behind the
// cluster without redrawing it faster than anyone can read.
const DefaultInterval = 50 * time.Millisecond

// firstBatchWait is how long the first batch waits for the caches to sync
// before it is sent anyway, with Synced false, so that the screen can say it
// is waiting for the cluster rather than stay blank.
const firstBatchWait = time.Second

// Bridge turns informer events into model.Batch messages.
type Bridge struct {
	clock    clock.PassiveClock
	send     func(model.Batch)
	interval time.Duration

	factories []informers.SharedInformerFactory
	sources   []*source // in the order batches list kinds
	byKind    map[string]*source
	dirty     *dirtySet
	setupErr  error
	running   atomic.Bool
	probe     Probe
	health    health

	// Owned by the pump.
	status    model.WatchStatus
	sentFirst bool
	sent      model.WatchStatus // the status in the last batch sent
}

// New prepares a bridge that watches scope through client and hands each
// batch to send. send is called from Run's goroutine only, one batch at a
// time; while it blocks, changes accumulate and are coalesced into the next
// batch. clk stamps the batches (the embedded cluster's virtual clock, or
// the real one); nil means the real clock.
func New(client kubernetes.Interface, scope Scope, clk clock.PassiveClock, send func(model.Batch), opts Options) *Bridge {
	b := &Bridge{
		clock:    clk,
		send:     send,
		interval: opts.Interval,
		probe:    opts.Probe,
		byKind:   map[string]*source{},
		dirty:    newDirtySet(),
	}
	if b.clock == nil {
		b.clock = clock.RealClock{}
	}
	if b.send == nil {
		b.send = func(model.Batch) {}
	}
	if b.interval <= 0 {
		b.interval = DefaultInterval
	}
	namespaced := informers.NewSharedInformerFactoryWithOptions(client, 0,
		informers.WithNamespace(scope.Namespace), informers.WithTransform(trim))
	clusterWide := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithTransform(trim))
	b.factories = []informers.SharedInformerFactory{namespaced, clusterWide}

	// Namespaces and nodes first and events last: a batch lists owners
	// before what they own. Namespaces only say whether the one the
	// console shows exists; there are few of them.
	ns := scope.Namespace
	b.add("Namespace", func(s *source) cache.SharedIndexInformer {
		return observedInformer(clusterWide, s, &corev1.Namespace{}, func(c kubernetes.Interface) calls[*corev1.NamespaceList] { return c.CoreV1().Namespaces() })
	})
	b.add("Node", func(s *source) cache.SharedIndexInformer {
		return observedInformer(clusterWide, s, &corev1.Node{}, func(c kubernetes.Interface) calls[*corev1.NodeList] { return c.CoreV1().Nodes() })
	})
	b.add("Deployment", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &appsv1.Deployment{}, func(c kubernetes.Interface) calls[*appsv1.DeploymentList] { return c.AppsV1().Deployments(ns) })
	})
	b.add("ReplicationController", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &corev1.ReplicationController{}, func(c kubernetes.Interface) calls[*corev1.ReplicationControllerList] {
			return c.CoreV1().ReplicationControllers(ns)
		})
	})
	b.addWorkloads(namespaced, ns)
	b.add("ReplicaSet", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &appsv1.ReplicaSet{}, func(c kubernetes.Interface) calls[*appsv1.ReplicaSetList] { return c.AppsV1().ReplicaSets(ns) })
	})
	b.add("Pod", func(s *source) cache.SharedIndexInformer {
		if opts.Config != nil {
			inf, err := slimPodInformer(namespaced, s, client, opts.Config, ns)
			if err == nil {
				return inf
			}
			b.setupErr = errors.Join(b.setupErr, err)
		}
		return observedInformer(namespaced, s, &corev1.Pod{}, func(c kubernetes.Interface) calls[*corev1.PodList] { return c.CoreV1().Pods(ns) })
	})
	b.add("PodDisruptionBudget", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &policyv1.PodDisruptionBudget{}, func(c kubernetes.Interface) calls[*policyv1.PodDisruptionBudgetList] {
			return c.PolicyV1().PodDisruptionBudgets(ns)
		})
	})
	b.add("Event", func(s *source) cache.SharedIndexInformer {
		return observedInformer(namespaced, s, &corev1.Event{}, func(c kubernetes.Interface) calls[*corev1.EventList] { return c.CoreV1().Events(ns) })
	})
	return b
}

// add watches one kind with the informer informerOf makes for its source.
func (b *Bridge) add(kind string, informerOf func(*source) cache.SharedIndexInformer) {
	s := &source{kind: kind, rank: len(b.sources)}
	inf := informerOf(s)
	s.informer = inf
	// Neither call can fail on an informer that has not started; should
	// one fail anyway, Run reports it rather than watching half blind.
	if err := inf.SetWatchErrorHandler(s.failed); err != nil {
		b.setupErr = errors.Join(b.setupErr, fmt.Errorf("cannot watch %s failures: %w", kind, err))
	}
	reg, err := inf.AddEventHandler(s.handler(b.dirty))
	if err != nil {
		b.setupErr = errors.Join(b.setupErr, fmt.Errorf("cannot watch %s changes: %w", kind, err))
	}
	s.handled = reg
	b.sources = append(b.sources, s)
	b.byKind[kind] = s
}

// Run starts the informers and sends batches until ctx is done. It stops the
// informers before it returns, and returns nil when ctx ended it. A Bridge
// runs once.
func (b *Bridge) Run(ctx context.Context) error {
	if !b.running.CompareAndSwap(false, true) {
		return errors.New("cannot run the watch bridge twice: make a new one with watch.New")
	}
	if b.setupErr != nil {
		return fmt.Errorf("cannot start watching the cluster: %w", b.setupErr)
	}
	b.status = model.WatchStatus{Connected: true, Since: b.clock.Now()}
	for _, f := range b.factories {
		f.Start(ctx.Done())
	}
	if b.probe != nil {
		go b.health.probeLoop(ctx, b.probe)
	}
	defer func() {
		for _, f := range b.factories {
			f.Shutdown() // waits for the informers, which stop with ctx
		}
	}()

	started := time.Now()
	// A timer reset after each pump, rather than a ticker, keeps at least an
	// Interval between batches even when send is slow.
	next := time.NewTimer(b.interval)
	defer next.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-next.C:
			b.pump(time.Since(started) >= firstBatchWait)
			next.Reset(b.interval)
		}
	}
}
