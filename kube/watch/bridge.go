package watch

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
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

	// Nodes first and events last: a batch lists owners before what they own.
	b.add("Node", clusterWide.Core().V1().Nodes().Informer())
	b.add("Deployment", namespaced.Apps().V1().Deployments().Informer())
	b.add("ReplicationController", namespaced.Core().V1().ReplicationControllers().Informer())
	b.add("ReplicaSet", namespaced.Apps().V1().ReplicaSets().Informer())
	b.add("Pod", namespaced.Core().V1().Pods().Informer())
	b.add("PodDisruptionBudget", namespaced.Policy().V1().PodDisruptionBudgets().Informer())
	b.add("Event", namespaced.Core().V1().Events().Informer())
	return b
}

func (b *Bridge) add(kind string, inf cache.SharedIndexInformer) {
	s := &source{kind: kind, informer: inf, rank: len(b.sources)}
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
