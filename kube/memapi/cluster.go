package memapi

import (
	"math/rand"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/apimachinery/pkg/watch"
	fakediscovery "k8s.io/client-go/discovery/fake"
	fakedynamic "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/clock"
)

// Options configures a Cluster.
type Options struct {
	// Clock stamps creationTimestamp and deletionTimestamp (and the other
	// times the server sets); nil means the real clock.
	Clock clock.PassiveClock
	// Seed makes generateName suffixes and UIDs reproducible.
	Seed int64
}

// watchHistoryPerResource is how many changes per resource a watch can be
// resumed across; older resourceVersions get 410 Gone, as from the real
// server's watch cache, and informers relist.
const watchHistoryPerResource = 4096

// clearActionsEvery bounds the fake clientset's record of actions, which it
// would otherwise keep forever.
const clearActionsEvery = 1024

// Cluster is an in-memory Kubernetes API server.
type Cluster struct {
	clock  clock.PassiveClock
	client *clientset
	// dynamic is the custom resources' client (custom.go).
	dynamic *fakedynamic.FakeDynamicClient
	direct  directClient
	kinds   []*kind
	calls   atomic.Uint64

	// mu serialises every read and write of the store. Writes are committed,
	// and watchers and subscribers told, while it is held.
	mu     sync.Mutex
	rv     uint64
	tables map[schema.GroupVersionResource]*table
	owners ownerIndex
	// live holds the UID of every stored object: whether an owner still
	// exists is all it is asked.
	live map[string]struct{}
	// shared is, by controller UID, the last pod stored whose spec parts
	// new pods of that controller share (shareSpec).
	shared map[string]*corev1.Pod
	// last are the last pod start time and running state stored: pods
	// started in the same second share them (toSeconds).
	last       lastTimes
	names      *rand.Rand
	seed       int64
	uidCounter uint64
	// discard is set, under mu, while a write is served whose caller does
	// not read the answer: the stored object is then not copied for it.
	discard bool
	// statusRequest carries a pod status write under mu (WriteStatus);
	// it is cleared after each write.
	statusRequest corev1.Pod

	lastRV atomic.Uint64

	subMu sync.Mutex // serialises changes to subs
	subs  atomic.Pointer[[]*subscription]
}

type subscription struct {
	fn     func(watch.Event)
	change func(watch.Event, runtime.Object) // SubscribeChanges's, instead of fn
}

// New starts an empty cluster holding the namespaces "default",
// "kube-system" and "kube-public".
func New(opts Options) *Cluster {
	return newCluster(opts, watchHistoryPerResource)
}

func newCluster(opts Options, historyLimit int) *Cluster {
	c := &Cluster{
		clock:  opts.Clock,
		kinds:  servedKinds(),
		tables: map[schema.GroupVersionResource]*table{},
		owners: ownerIndex{},
		live:   map[string]struct{}{},
		shared: map[string]*corev1.Pod{},
		names:  rand.New(rand.NewSource(opts.Seed)),
		seed:   opts.Seed,
	}
	if c.clock == nil {
		c.clock = clock.RealClock{}
	}
	for _, k := range c.kinds {
		c.tables[k.gvr] = newTable(k, historyLimit)
	}
	c.mu.Lock()
	for _, ns := range []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic} {
		// Cannot fail: the names are valid and the store is empty.
		_, _ = c.create(c.tables[corev1.SchemeGroupVersion.WithResource("namespaces")], "", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	}
	c.mu.Unlock()

	cs := newClientset()
	cs.PrependReactor("*", "*", c.react)
	cs.PrependWatchReactor("*", c.reactWatch)
	cs.Resources = discoveryLists(c.kinds)
	if d, ok := cs.Discovery().(*fakediscovery.FakeDiscovery); ok {
		d.FakedServerVersion = &version.Info{Major: "1", Minor: "36", GitVersion: "v1.36.3", Platform: "linux/amd64"}
	}
	c.client = cs
	c.dynamic = newDynamicClient(c)
	c.direct = newDirectClient(cs, c)
	return c
}

// Client returns the typed client of the cluster. Every call on it is
// answered by this cluster.
func (c *Cluster) Client() kubernetes.Interface { return c.direct }

// ResourceVersion returns the last committed resourceVersion.
func (c *Cluster) ResourceVersion() uint64 { return c.lastRV.Load() }

// Subscribe registers fn, called synchronously inside every committed write,
// in commit order, with the stored object (shared: callers must not modify
// it). Event types are watch.Added, watch.Modified and watch.Deleted. fn must
// not block and must not call back into the cluster. cancel unregisters fn;
// it may be called more than once, and from inside fn.
func (c *Cluster) Subscribe(fn func(watch.Event)) (cancel func()) {
	return c.subscribe(&subscription{fn: fn})
}

// SubscribeChanges is Subscribe with, beside each change, the stored object
// it replaced (read-only; nil for watch.Added): for a Modified change the
// previous version, for a Deleted one the object as stored before its
// final state. A packed event is read back anew (model/eventpack), equal to
// the one committed, so that a subscriber need not keep every event to
// hand an update's handler the event it replaced.
func (c *Cluster) SubscribeChanges(fn func(ev watch.Event, prev runtime.Object)) (cancel func()) {
	return c.subscribe(&subscription{change: fn})
}

func (c *Cluster) subscribe(s *subscription) (cancel func()) {
	// Holding mu orders the registration with commits: fn sees exactly the
	// writes committed after Subscribe returns.
	c.mu.Lock()
	c.subMu.Lock()
	c.storeSubs(append(c.loadSubs(), s))
	c.subMu.Unlock()
	c.mu.Unlock()

	var once sync.Once
	return func() {
		once.Do(func() {
			c.subMu.Lock()
			defer c.subMu.Unlock()
			c.storeSubs(slices.DeleteFunc(c.loadSubs(), func(o *subscription) bool { return o == s }))
		})
	}
}

// loadSubs returns a private copy of the subscriber list.
func (c *Cluster) loadSubs() []*subscription {
	if p := c.subs.Load(); p != nil {
		return slices.Clone(*p)
	}
	return nil
}

func (c *Cluster) storeSubs(s []*subscription) { c.subs.Store(&s) }

// notify calls every subscriber with a committed change and the stored
// object it replaced.
func (c *Cluster) notify(ev watch.Event, prev runtime.Object) {
	p := c.subs.Load()
	if p == nil {
		return
	}
	for _, s := range *p {
		if s.change != nil {
			s.change(ev, prev)
		} else {
			s.fn(ev)
		}
	}
}

// now is the server's notion of the current time. Timestamps in object
// metadata have a resolution of one second, as they do once a real server
// has stored them.
func (c *Cluster) now() metav1.Time {
	return metav1.NewTime(c.clock.Now().Truncate(time.Second))
}
