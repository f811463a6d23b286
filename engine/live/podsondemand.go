package live

import (
	"context"
	"errors"
	"sync"
	"time"

	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// podsOnDemand is a runner's pod cache when its controllers read pods only
// while they have work: the console's drains and canaries, whose requests
// are annotations on nodes and Deployments. Watching every pod of a big
// cluster costs more than anything else the console's controllers do, and
// most of the time none of them is running.
//
// The informer starts when a controller reads pods while needed says there
// is work (a sync of a drain or canary, which reads the node or Deployment
// that says so from the cache first), and the read waits until it has
// listed every pod: a drain never sees a half-filled cache. It stops when
// needed says there is no work left and no one has read pods for idle, so
// a read that has just been served finishes on a live cache; the next
// read starts a new informer and lists again.
type podsOnDemand struct {
	client    kubernetes.Interface
	namespace string
	transform cache.TransformFunc
	needed    func() bool
	idle      time.Duration

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

// podsIdle is how long a pod cache with no work left outlives its last read.
const podsIdle = time.Minute

func newPodsOnDemand(client kubernetes.Interface, namespace string, transform cache.TransformFunc, needed func() bool) *podsOnDemand {
	return &podsOnDemand{client: client, namespace: namespace, transform: transform, needed: needed, idle: podsIdle,
		empty: cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Pods))}
}

// AddEventHandler registers a controller's pod handler on every informer
// this cache starts. Call it before serve.
func (p *podsOnDemand) AddEventHandler(h cache.ResourceEventHandler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.handlers = append(p.handlers, h)
}

// serve lets reads start the informer from now on, and stops it when
// idle until ctx ends. Call it before any controller syncs: a read before
// it is answered from the empty cache.
func (p *podsOnDemand) serve(ctx context.Context) {
	p.mu.Lock()
	p.ctx = ctx
	p.mu.Unlock()
	p.done.Go(func() { p.stopWhenIdle(ctx) })
}

func (p *podsOnDemand) stopWhenIdle(ctx context.Context) {
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

// running reports whether pods are being watched.
func (p *podsOnDemand) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inf != nil
}

func (p *podsOnDemand) stopLocked() {
	if p.inf != nil {
		p.stop()
		p.inf, p.stop = nil, nil
	}
}

// current is the cache a read is served from: the running informer's,
// started and synced first when there is work; an empty one when there is
// none (no drain or canary to read pods for) or the runner has ended.
func (p *podsOnDemand) current() cache.Indexer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inf == nil {
		if p.ctx == nil || p.ctx.Err() != nil || !p.needed() {
			return p.empty
		}
		if !p.startLocked() {
			return p.empty
		}
	}
	p.lastRead = time.Now()
	return p.inf.GetIndexer()
}

func (p *podsOnDemand) startLocked() bool {
	inf := coreinformers.NewFilteredPodInformer(p.client, p.namespace, 0, control.Indexers(control.Pods), nil)
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

// The cache.Indexer the runner's pod listers read: reads go to current;
// only informers write to a cache, and this one is never given to one.

var errReadOnly = errors.New("the on-demand pod cache is filled by its informer only")

func (p *podsOnDemand) Add(any) error                    { return errReadOnly }
func (p *podsOnDemand) Update(any) error                 { return errReadOnly }
func (p *podsOnDemand) Delete(any) error                 { return errReadOnly }
func (p *podsOnDemand) Replace([]any, string) error      { return errReadOnly }
func (p *podsOnDemand) Resync() error                    { return errReadOnly }
func (p *podsOnDemand) Bookmark(string)                  {}
func (p *podsOnDemand) AddIndexers(cache.Indexers) error { return errReadOnly }
func (p *podsOnDemand) List() []any                      { return p.current().List() }
func (p *podsOnDemand) ListKeys() []string               { return p.current().ListKeys() }
func (p *podsOnDemand) LastStoreSyncResourceVersion() string {
	return p.current().LastStoreSyncResourceVersion()
}
func (p *podsOnDemand) Get(obj any) (any, bool, error) { return p.current().Get(obj) }
func (p *podsOnDemand) GetByKey(key string) (any, bool, error) {
	return p.current().GetByKey(key)
}
func (p *podsOnDemand) Index(name string, obj any) ([]any, error) {
	return p.current().Index(name, obj)
}
func (p *podsOnDemand) IndexKeys(name, value string) ([]string, error) {
	return p.current().IndexKeys(name, value)
}
func (p *podsOnDemand) ListIndexFuncValues(name string) []string {
	return p.current().ListIndexFuncValues(name)
}
func (p *podsOnDemand) ByIndex(name, value string) ([]any, error) {
	return p.current().ByIndex(name, value)
}
func (p *podsOnDemand) GetIndexers() cache.Indexers { return p.empty.GetIndexers() }
