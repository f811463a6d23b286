// Package control is the contract between rollscope's controllers and the
// runners that drive them.
//
// A controller is written the way sample-controller is: event handlers only
// enqueue keys, and Sync reads objects from listers and writes through
// kubernetes.Interface. The same controller runs under two runners:
//
//   - the embedded simulation runner (engine/sim), which feeds listers from the
//     in-memory API on a virtual clock, one sync at a time, so that a scenario
//     and seed always produce the same trace;
//   - the live runner (engine/live) on client-go shared informers and
//     rate-limited work queues against a real API server, used for the
//     console's drains, node-group rolls, RC rolling updates and canaries,
//     and for hollow nodes.
//
// Nothing in a controller may depend on which runner drives it.
//
// # Shared plumbing
//
// What the controllers share, so that each kind's package keeps only what
// differs: Keys (the queue their handlers add to), Lookup (how a sync
// starts), OwnerKey, Listers.OwnedPods and OwnedRevisions, AddWhenAvailable
// (a pod becoming available after minReadySeconds) and NewRevision
// (ControllerRevision history). For the per-pod paths of the kubelet and
// the scheduler: Listers.PodByKey (a pod read by its queue key, the pod
// index's key) and Namespaced (one namespaced client per namespace).
//
// Indexes are cheap to ask: the embedded runner's caches ask an index's
// one-value form (SingleValue) instead of its function on every write, and
// the canary and disruption controllers ask Listers.DeploymentIndex
// (IndexCanaries) and Listers.BudgetIndex (NoneIn) whether a pod change can
// concern them before any lister read.
//
// # Events
//
// APIRecorder records events as client-go's broadcaster does, through a
// rewrite of its correlator and spam filter (correlator.go, lru.go): the
// same three LRU caches of 4096 entries, touched in the same order, so they
// evict the same entries, but with keys hashed once and slots reused.
// TestRecorderWritesWhatClientGoWrites and
// TestRecorderEvictsWhereClientGoEvicts hold it, request by request, to
// what client-go's broadcaster writes, across the caches' eviction edge.
package control

import (
	"context"
	"hash/fnv"
	"math/rand"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"rollscope/model/kind"
)

// Kind names a watched resource (the plural resource name of its API).
type Kind string

// The kinds the controllers watch besides the workloads (Workload); the
// controllers of Deployments and ReplicationControllers, which have typed
// listers of their own, name theirs too.
const (
	Pods                   Kind = "pods"
	Nodes                  Kind = "nodes"
	Deployments            Kind = "deployments"
	ReplicaSets            Kind = "replicasets"
	ReplicationControllers Kind = "replicationcontrollers"
	PodDisruptionBudgets   Kind = "poddisruptionbudgets"
	ControllerRevisions    Kind = "controllerrevisions"
	Events                 Kind = "events"
	// AnalysisRuns are Argo's, which the embedded runner caches decoded
	// into model/argo's AnalysisRun.
	AnalysisRuns Kind = "analysisruns"
)

// Workload is the Kind a runner feeds the registry's workload kind k
// under: its API resource.
func Workload(k kind.Kind) Kind { return Kind(k.Resource().Resource) }

// AllKinds lists every kind a runner must be able to feed: every workload
// kind of the registry (Argo's Rollouts too, which the embedded runner
// caches decoded into model/argo's Rollout), and what the controllers read
// beside them.
var AllKinds = allKinds()

func allKinds() []Kind {
	ks := []Kind{Pods, Nodes}
	for _, e := range kind.All() {
		ks = append(ks, Workload(e.Kind))
	}
	return append(ks, ReplicaSets, PodDisruptionBudgets, ControllerRevisions, Events, AnalysisRuns)
}

// Index names every runner registers on its pod and replica set indexers.
const (
	// IndexByController indexes objects by the UID of their controller owner reference.
	IndexByController = "controller-uid"
	// IndexByNode indexes pods by spec.nodeName ("" for unscheduled pods).
	IndexByNode = "spec.nodeName"
	// IndexCanaries files the Deployments with canary annotations under
	// Canary, and no other Deployment.
	IndexCanaries = "canaries"
	Canary        = "canary"
)

// Listers give read access to the runner's caches. Objects returned are shared
// and must never be modified; copy before changing.
type Listers struct {
	Pods                   corelisters.PodLister
	Nodes                  corelisters.NodeLister
	Deployments            appslisters.DeploymentLister
	ReplicaSets            appslisters.ReplicaSetLister
	ReplicationControllers corelisters.ReplicationControllerLister
	PodDisruptionBudgets   policylisters.PodDisruptionBudgetLister
	// Workloads are the caches of the registry's workload kinds, by kind; a
	// kind's controller and readers build its typed lister on its cache
	// (appslisters.NewStatefulSetLister). The embedded runner feeds every
	// kind. The live runner feeds the kinds the console's controllers and
	// drains read, and every other kind and ControllerRevisions only for a
	// run that follows them (live.Scope.Workloads, simulate --kubeconfig):
	// on a live cluster kube-controller-manager runs their controllers. A
	// kind not fed has no cache (nil), and ControllerRevisions then no
	// lister.
	Workloads           map[kind.Kind]cache.Indexer
	ControllerRevisions appslisters.ControllerRevisionLister

	// PodIndex and ReplicaSetIndex carry IndexByController (and, for pods,
	// IndexByNode), so that a controller can find what it owns without
	// scanning the namespace.
	PodIndex        cache.Indexer
	ReplicaSetIndex cache.Indexer
	RCIndex         cache.Indexer
	// RevisionIndex carries IndexByController for ControllerRevisions.
	RevisionIndex cache.Indexer
	// DeploymentIndex carries IndexCanaries, and BudgetIndex the namespace
	// index of PodDisruptionBudgets: the canary and disruption controllers
	// ask them, on every pod change, whether there is anything to look up
	// at all (nearly always not), which costs no allocation where a lister's
	// Get or List costs several. Either may be nil: then they ask listers.
	DeploymentIndex cache.Indexer
	BudgetIndex     cache.Indexer
	// AnalysisRuns carries IndexByController; nil where the runner feeds
	// none (a live one: Argo's own controller runs them there).
	AnalysisRuns cache.Indexer
}

// Recorder records Kubernetes events about an object, as client-go's
// record.EventRecorder does.
type Recorder interface {
	Eventf(obj runtime.Object, eventType, reason, messageFmt string, args ...any)
}

// Env is what a runner hands to each controller it drives.
type Env struct {
	Client kubernetes.Interface
	// Dynamic reaches custom resources (Argo's Rollouts); nil where the
	// runner's client carries no dynamic client.
	Dynamic dynamic.Interface
	Listers Listers
	Clock   clock.PassiveClock
	Events  Recorder
	// Rand is private to one controller and seeded by the runner, so that
	// jitter is reproducible. It is only used from Sync.
	Rand *rand.Rand
}

// RandFor is the random source of the controller named component in a run
// seeded with seed. The embedded runner and a live run of a scenario both
// use it, so a scenario's hollow kubelets draw the same readiness jitter
// on either: a live run of a scenario then times its pods as the embedded
// one does, and the two can be compared step by step.
func RandFor(seed int64, component string) *rand.Rand {
	h := fnv.New64a()
	_, _ = h.Write([]byte(component))
	return rand.New(rand.NewSource(seed ^ int64(h.Sum64())))
}

// Queue is a controller's work queue. Keys are deduplicated while waiting.
type Queue interface {
	Add(key string)
	// AddAfter adds key once d has passed on the runner's clock.
	AddAfter(key string, d time.Duration)
}

// Controller is an informer-driven controller.
type Controller interface {
	// Name is the component name used in events and logs.
	Name() string
	// Watches returns the handlers to register, per kind. Handlers must only
	// enqueue keys on q: no I/O, no blocking.
	Watches(q Queue) map[Kind]cache.ResourceEventHandler
	// Sync reconciles one key. A returned error requeues the key with
	// back-off; a controller that wants to be called again later without an
	// error uses Queue.AddAfter.
	Sync(ctx context.Context, key string) error
}

// PodStatusWriter is implemented by pod clients that can write a pod's
// status without answering with a copy of the stored pod (the embedded API's):
// the kubelet's status writes are the most frequent write of a rehearsal, and
// it never reads the answer. A client without it is sent UpdateStatus.
// pod is only read for its identity and resourceVersion (the cached pod
// serves, with no copy of it made for the write); the caller gives up status
// (it built it for this write and never touches it again), so the status is
// stored without another copy.
type PodStatusWriter interface {
	WriteStatus(ctx context.Context, pod *corev1.Pod, status *corev1.PodStatus, opts metav1.UpdateOptions) error
}

// PodCreator is implemented by pod clients that can store a pod the caller
// gives up, answering only with its name (the embedded API's): the
// ReplicaSet controller builds each pod for its creation and reads back only
// the generated name. A client without it is sent Create.
type PodCreator interface {
	CreateOwned(ctx context.Context, pod *corev1.Pod, opts metav1.CreateOptions) (name string, err error)
}

// EventCreator is the same for events: the caller gives up ev, which the
// embedded API stores as it is, so that ev then shows what was stored.
type EventCreator interface {
	CreateOwned(ctx context.Context, ev *corev1.Event, opts metav1.CreateOptions) error
}
