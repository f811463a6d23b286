package live

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"

	"rollscope/engine/control"
	"rollscope/engine/drain"
	"rollscope/kube/objects"
	"rollscope/kube/watch"
	"rollscope/model"
	"rollscope/model/kind"
)

// Runner drives control.Controllers against a real API server.
type Runner struct {
	client    kubernetes.Interface
	factory   informers.SharedInformerFactory
	informers map[control.Kind]cache.SharedIndexInformer
	listers   control.Listers
	onError   func(controller, key string, err error)
	// seed seeds each controller's random source (Scope.Seed).
	seed int64

	// onDemand are the kinds the runner watches in full only while its
	// controllers have work (Scope.PodsNeeded, ReplicaSetsNeeded,
	// DeploymentsNeeded); informers then holds only their fallbacks (the
	// canaries' Deployments).
	onDemand map[control.Kind]*onDemand

	mu          sync.Mutex
	controllers []control.Controller
	synced      chan struct{}
}

// NewRunner prepares informers for every kind a controller may watch or list.
// onError, if set, hears about every failed sync (the key is retried with
// back-off either way).
func NewRunner(client kubernetes.Interface, onError func(controller, key string, err error)) (*Runner, error) {
	return NewScopedRunner(client, Scope{}, onError)
}

// Scope narrows what a runner watches.
type Scope struct {
	// Namespace, when set, is the only namespace whose pods, workloads and
	// events are watched.
	Namespace string
	// NodeSelector, when set, is a label selector: only the nodes it
	// selects are watched, so the controllers (drains, rolls, node groups)
	// never act on anyone else's.
	NodeSelector string
	// Workloads also watches every other workload kind and the
	// ControllerRevisions, for a run that follows them (simulate
	// --kubeconfig); the console's controllers need none of them
	// (Scope.watches), so a user who may not list them is not refused.
	Workloads bool
	// Trim keeps in the caches only what the console's drain, node-roll,
	// RC rolling-update and canary controllers read (trim.go), and only
	// the events the canary reads. Controllers that read more of a pod —
	// the hollow kubelet reads its containers — need a runner without it.
	Trim bool
	// Seed seeds each controller's random source with its name as the
	// embedded runner does (control.RandFor): a live run of a scenario
	// gives its own.
	Seed int64
	// PodsNeeded, when set, makes pods watched only while it says the
	// controllers have work that reads them (ondemand.go), and
	// ReplicaSetsNeeded ReplicaSets. Each reads the runner's other caches.
	PodsNeeded, ReplicaSetsNeeded func(control.Listers) bool
	// DeploymentsNeeded, when set, makes every Deployment watched only
	// while it says so; the rest of the time the runner watches only the
	// Deployments labelled as a canary's (model.CanaryLabel), which a
	// canary reads, and it must not read the Deployments itself.
	DeploymentsNeeded func(control.Listers) bool
}

// NewScopedRunner is NewRunner watching only what scope selects. A run that
// owns a namespace and a set of nodes needs no more; on a big cluster it
// keeps the caches small, and next to another run it keeps the two apart.
func NewScopedRunner(client kubernetes.Interface, scope Scope, onError func(controller, key string, err error)) (*Runner, error) {
	opts := []informers.SharedInformerOption{informers.WithNamespace(scope.Namespace)}
	if scope.Trim {
		opts = append(opts, informers.WithTransform(trimForControllers))
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, opts...)
	if scope.Trim {
		// Registered first, like the node informer below.
		factory.InformerFor(&corev1.Event{}, func(c kubernetes.Interface, resync time.Duration) cache.SharedIndexInformer {
			return coreinformers.NewFilteredEventInformer(c, scope.Namespace, resync, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, func(o *metav1.ListOptions) {
				o.FieldSelector = canaryWarnings
			})
		})
	}
	if scope.NodeSelector != "" {
		// Registered first, this filtered informer is the factory's node
		// informer from now on.
		factory.InformerFor(&corev1.Node{}, func(c kubernetes.Interface, resync time.Duration) cache.SharedIndexInformer {
			return coreinformers.NewFilteredNodeInformer(c, resync, cache.Indexers{}, func(o *metav1.ListOptions) {
				o.LabelSelector = scope.NodeSelector
			})
		})
	}
	r := &Runner{
		client:  client,
		factory: factory,
		onError: onError,
		seed:    scope.Seed,
		synced:  make(chan struct{}),
		informers: map[control.Kind]cache.SharedIndexInformer{
			control.Nodes:                factory.Core().V1().Nodes().Informer(),
			control.PodDisruptionBudgets: factory.Policy().V1().PodDisruptionBudgets().Informer(),
			control.Events:               factory.Core().V1().Events().Informer(),
		},
	}
	for _, row := range objects.Builtin() {
		if scope.watches(row.Kind) {
			r.informers[control.Workload(row.Kind)] = workloadInformer(factory, row, scope.Namespace, scope.selects(row.Kind))
		}
	}
	if scope.Workloads {
		// Custom workloads (Argo's Rollouts) too, where the cluster
		// serves them: a run of a scenario that declares one follows it.
		for _, row := range objects.All() {
			if e, _ := row.Kind.Entry(); e.Custom != "" && servesCustom(client, row.Kind, scope.Namespace) {
				r.informers[control.Workload(row.Kind)] = workloadInformer(factory, row, scope.Namespace, "")
			}
		}
	}
	var transform cache.TransformFunc
	if scope.Trim {
		transform = trimForControllers
	}
	r.onDemand = map[control.Kind]*onDemand{}
	if scope.PodsNeeded != nil {
		r.onDemand[control.Pods] = podsOnDemand(client, scope.Namespace, transform, func() bool { return scope.PodsNeeded(r.listers) })
	} else {
		r.informers[control.Pods] = factory.Core().V1().Pods().Informer()
	}
	if scope.ReplicaSetsNeeded != nil {
		r.onDemand[control.ReplicaSets] = replicaSetsOnDemand(client, scope.Namespace, transform, func() bool { return scope.ReplicaSetsNeeded(r.listers) })
	} else {
		r.informers[control.ReplicaSets] = factory.Apps().V1().ReplicaSets().Informer()
	}
	if scope.DeploymentsNeeded != nil {
		all := deploymentsOnDemand(client, scope.Namespace, transform, func() bool { return scope.DeploymentsNeeded(r.listers) })
		all.fallback = r.informers[control.Deployments]
		r.onDemand[control.Deployments] = all
	}
	if scope.Workloads {
		r.informers[control.ControllerRevisions] = factory.Apps().V1().ControllerRevisions().Informer()
	}
	for kind, inf := range r.informers {
		extra := cache.Indexers{}
		for name, fn := range control.Indexers(kind) {
			// The factory's informers already index by namespace.
			if name != cache.NamespaceIndex {
				extra[name] = fn
			}
		}
		if len(extra) > 0 {
			if err := inf.AddIndexers(extra); err != nil {
				return nil, fmt.Errorf("adding the %s indexers: %w", kind, err)
			}
		}
	}
	idx := func(k control.Kind) cache.Indexer {
		if c, ok := r.onDemand[k]; ok {
			return c
		}
		return r.informers[k].GetIndexer()
	}
	r.listers = control.Listers{
		Pods:                   corelisters.NewPodLister(idx(control.Pods)),
		Nodes:                  corelisters.NewNodeLister(idx(control.Nodes)),
		Deployments:            appslisters.NewDeploymentLister(idx(control.Deployments)),
		ReplicaSets:            appslisters.NewReplicaSetLister(idx(control.ReplicaSets)),
		ReplicationControllers: corelisters.NewReplicationControllerLister(idx(control.ReplicationControllers)),
		PodDisruptionBudgets:   policylisters.NewPodDisruptionBudgetLister(idx(control.PodDisruptionBudgets)),
		Workloads:              map[kind.Kind]cache.Indexer{},
		PodIndex:               idx(control.Pods),
		ReplicaSetIndex:        idx(control.ReplicaSets),
		RCIndex:                idx(control.ReplicationControllers),
		DeploymentIndex:        idx(control.Deployments),
		BudgetIndex:            idx(control.PodDisruptionBudgets),
	}
	for _, row := range objects.All() {
		if _, watched := r.informers[control.Workload(row.Kind)]; watched {
			r.listers.Workloads[row.Kind] = idx(control.Workload(row.Kind))
		}
	}
	if scope.Workloads {
		r.listers.ControllerRevisions = appslisters.NewControllerRevisionLister(idx(control.ControllerRevisions))
		r.listers.RevisionIndex = idx(control.ControllerRevisions)
	}
	return r, nil
}

// watches says whether a runner of this scope watches workloads of kind k:
// the console's controllers read Deployments (canaries) and
// ReplicationControllers (rolling updates), its drains one kind more
// (drain.Reads); a run that follows workloads reads every kind.
func (s Scope) watches(k kind.Kind) bool {
	return s.Workloads || k == kind.Deployment || k == kind.ReplicationController || k == drain.Reads
}

// selects is the label selector of the runner's informer of kind k, ""
// for all: with DeploymentsNeeded, the canaries' Deployments.
func (s Scope) selects(k kind.Kind) string {
	if k == kind.Deployment && s.DeploymentsNeeded != nil {
		return model.CanaryLabel
	}
	return ""
}

// servesCustom reports whether client reaches custom resources and the
// cluster serves k's to list and watch in ns.
func servesCustom(client kubernetes.Interface, k kind.Kind, ns string) bool {
	if _, err := objects.DynamicOf(client); err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return watch.Serves(ctx, client, k.Resource(), ns)
}

// workloadInformer is the factory's informer of row's kind in namespace ns,
// made as the factory makes its own: namespace-indexed, transformed by the
// factory's transform (InformerFor), listed with streaming lists where the
// client supports them; selector, when not "", narrows it to the objects
// it selects.
func workloadInformer(factory informers.SharedInformerFactory, row objects.Row, ns, selector string) cache.SharedIndexInformer {
	return factory.InformerFor(row.New(), func(c kubernetes.Interface, resync time.Duration) cache.SharedIndexInformer {
		return cache.NewSharedIndexInformerWithOptions(row.ListerWatcher(c, ns, selector), row.New(), cache.SharedIndexInformerOptions{
			ResyncPeriod: resync,
			Indexers:     cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
			Identifier:   factory.InformerName().WithResource(row.Kind.Resource()),
		})
	})
}

// Listers read the runner's caches.
func (r *Runner) Listers() control.Listers { return r.listers }

// Synced is closed once Run has filled the caches and the controllers are
// working.
func (r *Runner) Synced() <-chan struct{} { return r.synced }

// Env returns the environment for one controller: the runner's client and
// listers, the wall clock, an event recorder writing through the API under
// component, and a random source of its own.
func (r *Runner) Env(component string) *control.Env {
	return &control.Env{
		Client:  r.client,
		Listers: r.listers,
		Clock:   clock.RealClock{},
		Events:  &control.APIRecorder{Client: r.client, Clock: clock.RealClock{}, Component: component},
		Rand:    control.RandFor(r.seed, component),
	}
}

// Add registers a controller built on an Env of this runner. Add all of them
// before Run.
func (r *Runner) Add(c control.Controller) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.controllers = append(r.controllers, c)
}

// Run starts the informers, waits for their caches, and syncs every
// controller's keys until ctx ends. Each controller has a single worker: its
// Env.Rand is not safe for concurrent use, and the embedded engine syncs one
// key at a time too.
func (r *Runner) Run(ctx context.Context) error {
	r.mu.Lock()
	controllers := append([]control.Controller(nil), r.controllers...)
	r.mu.Unlock()

	var queues []workqueue.TypedRateLimitingInterface[string]
	for _, c := range controllers {
		q := workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: c.Name()})
		queues = append(queues, q)
		for kind, handler := range c.Watches(liveQueue{q}) {
			if od, ok := r.onDemand[kind]; ok {
				if err := od.AddEventHandler(handler); err != nil {
					return fmt.Errorf("registering %s's %s handler: %w", c.Name(), kind, err)
				}
				continue
			}
			inf, ok := r.informers[kind]
			if !ok {
				return fmt.Errorf("controller %s watches %s, which the live runner does not feed", c.Name(), kind)
			}
			if _, err := inf.AddEventHandler(handler); err != nil {
				return fmt.Errorf("registering %s's %s handler: %w", c.Name(), kind, err)
			}
		}
	}
	r.factory.Start(ctx.Done())
	for kind, ok := range r.factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return fmt.Errorf("the %v cache never synced: %w", kind, context.Cause(ctx))
		}
	}

	for _, c := range r.onDemand {
		c.serve(ctx)
	}
	close(r.synced)

	var wg sync.WaitGroup
	for i, c := range controllers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx, c, queues[i])
		}()
	}
	<-ctx.Done()
	for _, q := range queues {
		q.ShutDown()
	}
	wg.Wait()
	for _, c := range r.onDemand {
		c.done.Wait()
	}
	r.factory.Shutdown()
	return nil
}

func (r *Runner) work(ctx context.Context, c control.Controller, q workqueue.TypedRateLimitingInterface[string]) {
	for {
		key, shutdown := q.Get()
		if shutdown {
			return
		}
		if err := c.Sync(ctx, key); err != nil && ctx.Err() == nil {
			if r.onError != nil {
				r.onError(c.Name(), key, err)
			}
			q.AddRateLimited(key)
		} else {
			q.Forget(key)
		}
		q.Done(key)
	}
}

// liveQueue adapts a client-go work queue to control.Queue.
type liveQueue struct {
	q workqueue.TypedRateLimitingInterface[string]
}

func (l liveQueue) Add(key string) { l.q.Add(key) }

func (l liveQueue) AddAfter(key string, d time.Duration) { l.q.AddAfter(key, d) }
