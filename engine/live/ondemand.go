package live

import (
	"context"
	"errors"
	"sync"
	"time"

	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// onDemand is a runner's cache of one kind when its controllers read it
// only while they have work: the console's drains and canaries read pods,
// and its canaries and node rolls ReplicaSets, and their requests are
// annotations on nodes and Deployments. Watching every pod of a big
// cluster costs more than anything else the console's controllers do, the
// ReplicaSets' status writes of every rollout come second, and most of the
// time none of these controllers is running.
//
// The informer starts when a controller reads the kind while needed says
// there is work (a sync of a drain, canary or node roll, which reads the
// node or Deployment that says so from the cache first), and the read waits
// until it has listed every object: a drain never sees a half-filled cache.
// It stops when needed says there is no work left and no one has read the
// kind for idle, so a read that has just been served finishes on a live
// cache; the next read starts a new informer and lists again.
type onDemand struct {
	kind        control.Kind
	newInformer func() cache.SharedIndexInformer
	transform   cache.TransformFunc
	needed      func() bool
	idle        time.Duration
	// fallback, when set, is a narrower informer of the kind that runs
	// all along (the Deployments labelled as canaries'): reads go to it
	// while the kind is not watched in full, and the controllers' handlers
	// watch it too, so that what it holds is work they hear of.
	fallback cache.SharedIndexInformer

	mu       sync.Mutex
	ctx      context.Context // the runner's; nil before Run
	handlers []cache.ResourceEventHandler
	inf      cache.SharedIndexInformer // nil while stopped
	stop     context.CancelFunc
	lastRead time.Time
	empty    cache.Indexer
	// done counts the goroutines serve and the informers started, which
	// the runner waits for once its context has ended.
	done sync.WaitGroup
}

// idleAfterWork is how long a cache with no work left outlives its last
// read.
const idleAfterWork = time.Minute

// podsOnDemand is the pods of namespace ("" for all) on demand.
func podsOnDemand(client kubernetes.Interface, namespace string, transform cache.TransformFunc, needed func() bool) *onDemand {
	return newOnDemand(control.Pods, func() cache.SharedIndexInformer {
		return coreinformers.NewFilteredPodInformer(client, namespace, 0, control.Indexers(control.Pods), nil)
	}, transform, needed)
}

// replicaSetsOnDemand is the ReplicaSets of namespace ("" for all) on
// demand.
func replicaSetsOnDemand(client kubernetes.Interface, namespace string, transform cache.TransformFunc, needed func() bool) *onDemand {
	return newOnDemand(control.ReplicaSets, func() cache.SharedIndexInformer {
		return appsinformers.NewFilteredReplicaSetInformer(client, namespace, 0, control.Indexers(control.ReplicaSets), nil)
	}, transform, needed)
}

// deploymentsOnDemand is every Deployment of namespace ("" for all) on
// demand.
func deploymentsOnDemand(client kubernetes.Interface, namespace string, transform cache.TransformFunc, needed func() bool) *onDemand {
	return newOnDemand(control.Deployments, func() cache.SharedIndexInformer {
		return appsinformers.NewFilteredDeploymentInformer(client, namespace, 0, control.Indexers(control.Deployments), nil)
	}, transform, needed)
}

func newOnDemand(kind control.Kind, newInformer func() cache.SharedIndexInformer, transform cache.TransformFunc, needed func() bool) *onDemand {
	return &onDemand{kind: kind, newInformer: newInformer, transform: transform, needed: needed, idle: idleAfterWork,
		empty: cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(kind))}
}

// AddEventHandler registers a controller's handler of the kind on every
// informer this cache starts, and on its fallback. Call it before serve.
func (p *onDemand) AddEventHandler(h cache.ResourceEventHandler) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.handlers = append(p.handlers, h)
	if p.fallback != nil {
		if _, err := p.fallback.AddEventHandler(h); err != nil {
			return err
		}
	}
	return nil
}

// serve lets reads start the informer from now on, and stops it when
// idle until ctx ends. Call it before any controller syncs: a read before
// it is answered from the empty cache.
func (p *onDemand) serve(ctx context.Context) {
	p.mu.Lock()
	p.ctx = ctx
	p.mu.Unlock()
	p.done.Go(func() { p.stopWhenIdle(ctx) })
}

func (p *onDemand) stopWhenIdle(ctx context.Context) {
	tick := time.NewTicker(p.idle / 4)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			p.mu.Lock()
			p.stopLocked()
			p.mu.Unlock()
			return
		case <-tick.C:
			p.mu.Lock()
			if p.inf != nil && time.Since(p.lastRead) >= p.idle && !p.needed() {
				p.stopLocked()
			}
			p.mu.Unlock()
		}
	}
}

// running reports whether the kind is being watched.
func (p *onDemand) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inf != nil
}

func (p *onDemand) stopLocked() {
	if p.inf != nil {
		p.stop()
		p.inf, p.stop = nil, nil
	}
}

// current is the cache a read is served from: the running informer's,
// started and synced first when there is work; the fallback's, or an empty
// one, when there is none (no drain, canary or node roll to read it for)
// or the runner has ended.
func (p *onDemand) current() cache.Indexer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inf == nil {
		if p.ctx == nil || p.ctx.Err() != nil || !p.needed() || !p.startLocked() {
			return p.narrow()
		}
	}
	p.lastRead = time.Now()
	return p.inf.GetIndexer()
}

// narrow is the cache reads go to while the kind is not watched in full.
func (p *onDemand) narrow() cache.Indexer {
	if p.fallback != nil {
		return p.fallback.GetIndexer()
	}
	return p.empty
}

func (p *onDemand) startLocked() bool {
	inf := p.newInformer()
	if p.transform != nil {
		if err := inf.SetTransform(p.transform); err != nil {
			return false
		}
	}
	for _, h := range p.handlers {
		if _, err := inf.AddEventHandler(h); err != nil {
			return false
		}
	}
	ctx, stop := context.WithCancel(p.ctx)
	// stopWhenIdle holds done above zero until it has taken mu to stop
	// this informer, so this Add never races the runner's Wait.
	p.done.Go(func() { inf.RunWithContext(ctx) })
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		stop()
		return false
	}
	p.inf, p.stop = inf, stop
	return true
}

// The cache.Indexer the runner's listers of the kind read: reads go to
// current; only informers write to a cache, and this one is never given to
// one.

var errReadOnly = errors.New("an on-demand cache is filled by its informer only")

func (p *onDemand) Add(any) error                    { return errReadOnly }
func (p *onDemand) Update(any) error                 { return errReadOnly }
func (p *onDemand) Delete(any) error                 { return errReadOnly }
func (p *onDemand) Replace([]any, string) error      { return errReadOnly }
func (p *onDemand) Resync() error                    { return errReadOnly }
func (p *onDemand) Bookmark(string)                  {}
func (p *onDemand) AddIndexers(cache.Indexers) error { return errReadOnly }
func (p *onDemand) List() []any                      { return p.current().List() }
func (p *onDemand) ListKeys() []string               { return p.current().ListKeys() }
func (p *onDemand) LastStoreSyncResourceVersion() string {
	return p.current().LastStoreSyncResourceVersion()
}
func (p *onDemand) Get(obj any) (any, bool, error) { return p.current().Get(obj) }
func (p *onDemand) GetByKey(key string) (any, bool, error) {
	return p.current().GetByKey(key)
}
func (p *onDemand) Index(name string, obj any) ([]any, error) {
	return p.current().Index(name, obj)
}
func (p *onDemand) IndexKeys(name, value string) ([]string, error) {
	return p.current().IndexKeys(name, value)
}
func (p *onDemand) ListIndexFuncValues(name string) []string {
	return p.current().ListIndexFuncValues(name)
}
func (p *onDemand) ByIndex(name, value string) ([]any, error) {
	return p.current().ByIndex(name, value)
}
func (p *onDemand) GetIndexers() cache.Indexers { return p.empty.GetIndexers() }
