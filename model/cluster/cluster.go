package cluster

import (
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Cluster is the console's picture of the watched objects. The watch bridge's
// Batches are folded in by Apply, and the screen asks it for views. Apply
// does work in proportion to the batch, not to the cluster: the indexes a
// view needs (ReplicaSets and pods by controlling owner, pods by node, events
// by the object they are about) are kept up to date object by object.
//
// Objects are kept as delivered and never modified, so the informer caches
// they come from stay intact. A Cluster is safe for concurrent use.
type Cluster struct {
	mu    sync.RWMutex
	watch WatchStatus
	// listed is set once a batch said every watch had listed: what
	// appears after it is new. The watch status may say unsynced again
	// later (every pod listing for a console that watched only some).
	listed bool
	// awaitingPods is set while the console has asked for pods the watch
	// has yet to bring: awaitedNamespace's, or every pod's when it is ""
	// (AwaitPods).
	awaitingPods     bool
	awaitedNamespace string
	// name is the kubeconfig context the picture is of, stamped on its
	// fleet rows (FleetRow.Cluster); "" for an unnamed one.
	name string

	// Objects by "namespace/name" (nodes by name).
	deployments map[string]*appsv1.Deployment
	replicaSets map[string]*appsv1.ReplicaSet
	pods        map[string]*podEntry
	nodes       map[string]*corev1.Node
	events      map[string]*corev1.Event
	// deploymentSet moves whenever a Deployment comes or goes, for the
	// memo of FirstDeployment.
	deploymentSet uint64
	first         firstMemo

	replicaSetsByOwner index[types.UID]
	podsByOwner        index[types.UID]
	// entriesByOwner files the same pods' entries, so that the blocker
	// reads a rollout's pods without a lookup each.
	entriesByOwner map[types.UID]*entrySet
	// tallies are what the blocker reads of each ReplicaSet's pods
	// (tally.go).
	tallies    map[tallyKey]*podTally
	podsByNode index[string]
	// activeOnNode counts each node's active pods (IsPodActive), kept as
	// pods come, change and go: the node list shows it for every node on
	// every redraw, and walking each node's pods made that cost every pod
	// held.
	activeOnNode   map[string]int
	nodeRows       nodeRowCache
	eventsByObject index[ObjectRef]
	podRows        podRowCache

	// timelines by deployment "namespace/name".
	timelines map[string]*timeline

	// What is known to be absent (absence.go): when each deployment was
	// seen deleted, and the namespaces that exist.
	deletedAt  map[string]time.Time
	namespaces map[string]bool
	// workloads are the workloads of every other kind, with their
	// ControllerRevisions (workloadstore.go).
	workloads *workloads
	// fleetBook keeps the fleet's rows and what changed under them
	// (book.go).
	fleetBook *fleetBook

	// rcs are the ReplicationControllers by "namespace/name", for the
	// rolling update view (rc.go); rcMu guards them.
	rcMu sync.RWMutex
	rcs  map[string]*corev1.ReplicationController
}

// podEntry keeps a pod with its row, derived once when the pod arrives so
// that views of large rollouts only gather rows.
type podEntry struct {
	pod   *corev1.Pod
	row   PodRow
	facts podFacts // what the blocker line reads
	slot  int32    // its place in its owner's entrySet
	// tally is the one it is counted in, heapAt its place in each of the
	// tally's heaps it is in.
	tally  *podTally
	heapAt [heapKinds]int32
}

// NewCluster returns an empty picture, not yet synced.
func NewCluster() *Cluster {
	return &Cluster{
		deployments:        map[string]*appsv1.Deployment{},
		replicaSets:        map[string]*appsv1.ReplicaSet{},
		pods:               map[string]*podEntry{},
		nodes:              map[string]*corev1.Node{},
		events:             map[string]*corev1.Event{},
		replicaSetsByOwner: index[types.UID]{},
		podsByOwner:        index[types.UID]{},
		entriesByOwner:     map[types.UID]*entrySet{},
		tallies:            map[tallyKey]*podTally{},
		podsByNode:         index[string]{},
		activeOnNode:       map[string]int{},
		eventsByObject:     index[ObjectRef]{},
		timelines:          map[string]*timeline{},
		deletedAt:          map[string]time.Time{},
		namespaces:         map[string]bool{},
		workloads:          newWorkloads(),
		fleetBook:          newFleetBook(),
		rcs:                map[string]*corev1.ReplicationController{},
	}
}

// Named names the picture after the kubeconfig context it is of: its fleet
// rows carry the name. It is set before the first Apply.
func (c *Cluster) Named(name string) *Cluster {
	c.name = name
	return c
}

// Name is the kubeconfig context the picture is of.
func (c *Cluster) Name() string { return c.name }

// Watch is the watch status the last batch carried — listing its pods
// while the console awaits pods it does not hold (AwaitPods).
func (c *Cluster) Watch() WatchStatus {
	c.mu.RLock()
	defer c.mu.RUnlock()
	w := c.watch
	if c.awaitingPods && w.Synced {
		w.Synced, w.Listing = false, "Pod"
	}
	return w
}

// apply folds a batch into the picture (but its ReplicationControllers,
// see Apply) and reports whether anything the views show may have
// changed. Deletions are applied first: an object that
// was deleted and created again within one batch is listed in both, and its
// current version must win. Kinds the console does not show are ignored.
func (c *Cluster) apply(b Batch) (changed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()

	// Scale entries for ReplicaSets that appear only make sense once the
	// initial listing is in; before that every ReplicaSet is "new".
	u := update{at: b.At, synced: c.listed}
	if b.Watch != c.watch {
		c.podsHeldMoved(c.watch, b.Watch)
		c.watch = b.Watch
		changed = true
	}
	c.awaitingPods = c.awaitingPods && lacksPods(b.Watch, c.awaitedNamespace)
	c.listed = c.listed || b.Watch.Synced
	for _, ref := range b.Deleted {
		changed = c.delete(ref, b.At) || changed
		changed = c.noteGone(ref, b.At) || changed
	}
	// Deployments go before the ReplicaSets and events that mention them,
	// whatever order the batch lists them in, so that timeline entries find
	// their deployment.
	var rest, events []runtime.Object
	for _, obj := range b.Objects {
		switch o := obj.(type) {
		case *appsv1.Deployment:
			if o != nil {
				changed = c.putDeployment(o, u) || changed
			}
		case *corev1.Event:
			events = append(events, obj)
		default:
			rest = append(rest, obj)
		}
	}
	for _, obj := range rest {
		switch o := obj.(type) {
		case *appsv1.ReplicaSet:
			if o != nil {
				changed = c.putReplicaSet(o, u) || changed
			}
		case *corev1.Pod:
			if o != nil {
				changed = c.putPod(o, u) || changed
			}
		case *corev1.Node:
			if o != nil {
				changed = c.putNode(o) || changed
			}
		case *corev1.Namespace:
			if o != nil {
				changed = c.putNamespace(o) || changed
			}
		default:
			changed = c.putWorkload(obj, u) || changed
		}
	}
	for _, obj := range events {
		if e := obj.(*corev1.Event); e != nil {
			changed = c.putEvent(e, u) || changed
		}
	}
	return changed
}

// update is what Apply's steps need to know about the batch at hand.
type update struct {
	at     time.Time
	synced bool // the picture was synced before this batch
}
