package cluster

import (
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
)

// This file is the contract between the watch bridge (kube/watch), the
// console's picture of the cluster (Cluster, in this package) and the screen
// (ui): the bridge delivers Batches, Cluster.Apply folds them in, and the
// screen renders the views below. Views are plain values: rendering never
// reads a Kubernetes object. Their slices are shared, never to be written,
// and the rows of pods and nodes only last through one more read: a read
// writes into the rows returned before the latest (podRowsOf, Nodes), as
// the one reader, the screen, keeps only its latest view.

// Batch is one coalesced update from the watch bridge: the current version
// of every object that changed since the last batch, read from the informer
// caches, and the objects that went away.
type Batch struct {
	// Cluster is the kubeconfig context the batch was read from; "" for
	// a console of one cluster, whose one picture takes it.
	Cluster string
	// At is when the batch was read, on the cluster's clock (virtual time
	// in the embedded cluster); timeline entries are stamped with it.
	At      time.Time
	Objects []runtime.Object
	Deleted []ObjectRef
	Watch   WatchStatus
}

// ObjectRef names an object. Kind is the API kind: Deployment, ReplicaSet,
// Pod, Node, PodDisruptionBudget, Event, ReplicationController.
type ObjectRef struct {
	Kind, Namespace, Name string
}

// WatchStatus says whether the console's picture can be trusted.
type WatchStatus struct {
	// Synced is true once every informer has listed what it watches. It
	// goes false again only while a console that watched some
	// namespaces' pods lists every pod (PodsNarrowed), which it then
	// shows as it shows the first list.
	Synced bool
	// Connected is false while a watch is failing; Problem says why.
	Connected bool
	Problem   string
	// Since is when the current state (connected or not) began.
	Since time.Time
	// Unanswered is set when the API server does not answer its health
	// probe although the watches have not noticed: Problem says how.
	Unanswered bool
	// Forbidden names the kinds the cluster refuses to list to this user
	// ("Node", or several joined by ", "): what the console cannot show,
	// not a lost watch.
	Forbidden string
	// Listing names the kind ("Pod") whose first list is still coming in
	// while the picture is not Synced, and ListedSoFar how many of its
	// objects have come: the console says so rather than show a picture
	// that is empty only because the list has not ended.
	Listing     string
	ListedSoFar int
	// PodsNarrowed is set while the console watches pods only in the
	// namespaces it asked for (the fleet of every namespace, kube/watch's
	// PodNamespaces); PodNamespaces then names those whose pods the picture
	// holds, sorted and joined by ",". A namespace not named has pods the
	// picture does not know, not none.
	PodsNarrowed  bool
	PodNamespaces string
}

// HoldsPods reports whether the picture holds the namespace's pods.
func (w WatchStatus) HoldsPods(namespace string) bool {
	if !w.PodsNarrowed {
		return true
	}
	for ns := range strings.SplitSeq(w.PodNamespaces, ",") {
		if ns == namespace {
			return true
		}
	}
	return false
}

// Stale reports whether the picture is only the last one known: the
// watch is failing, or the API server does not answer its health probe.
func (w WatchStatus) Stale() bool { return w.Synced && (!w.Connected || w.Unanswered) }

// LastKnown says how old a stale picture is and why, as the fleet shows it
// beside a cluster's name: "last known 12s ago: connection refused"; ""
// while the picture is current.
func (w WatchStatus) LastKnown(now time.Time) string {
	if !w.Stale() {
		return ""
	}
	age := max(now.Sub(w.Since), 0).Round(time.Second)
	why := w.Problem
	if why == "" {
		why = "not answering"
	}
	return "last known " + age.String() + " ago: " + why
}

// MayNotList reports whether the cluster refuses to list kind to the user.
func (w WatchStatus) MayNotList(kind string) bool {
	for k := range strings.SplitSeq(w.Forbidden, ", ") {
		if k == kind {
			return true
		}
	}
	return false
}

// Condition is a condition as the screen shows it.
type Condition struct {
	Status  string // "True", "False", "Unknown", or "" when absent
	Reason  string
	Message string
}

// RolloutView is everything the screen shows about one Deployment.
type RolloutView struct {
	Namespace, Name string
	Generation      int64
	Observed        bool   // status.observedGeneration >= generation
	Strategy        string // RollingUpdate or Recreate
	Replicas        int32
	// MaxSurge and MaxUnavailable are resolved with upstream rounding; the
	// Spec fields keep what the user wrote ("25%", "3").
	MaxSurge, MaxUnavailable         int32
	MaxSurgeSpec, MaxUnavailableSpec string
	MinReadySeconds                  int32
	ProgressDeadlineSeconds          int32 // 0 when none
	Paused                           bool
	Revision                         int64
	Progressing, Available           Condition
	// Status is `kubectl rollout status`'s sentence for the current state;
	// Done is true once the rollout has finished, Failed once it has
	// exceeded its progress deadline.
	Status string
	Done   bool
	Failed bool
	// Pending is the template change no ReplicaSet runs yet ("app
	// nginx:1.27 → nginx:1.28"), as on a paused deployment after kubectl
	// set image; "" when there is none.
	Pending string
	// Blocker names the one thing holding the rollout back, or what is
	// happening when nothing does; "" once it is done (Blocker).
	Blocker string

	// Surge: pods in use (Σ ReplicaSet spec.replicas) against replicas +
	// maxSurge. Unavailable: replicas that are not available against
	// maxUnavailable.
	Surge, Unavailable model.Headroom

	ReplicaSets []ReplicaSetRow // newest revision first
	History     []RevisionRow   // oldest revision first, as kubectl prints it

	// Canary is the guided canary the deployment runs, nil with none.
	// While a step holds, the strategy fields above are the deployment's
	// own, saved by the canary, not the hold's.
	Canary *CanaryView
}

// ReplicaSetRole says what a ReplicaSet is to its rollout.
type ReplicaSetRole int

const (
	// RoleOld is a ReplicaSet of an earlier template.
	RoleOld ReplicaSetRole = iota
	// RoleNew runs the current template while a rollout is in progress.
	RoleNew
	// RoleStable runs the current template and the rollout is complete.
	RoleStable
)

// ReplicaSetRow is one ReplicaSet of a rollout.
type ReplicaSetRow struct {
	Name, Hash string
	Revision   int64
	Role       ReplicaSetRole
	Images     []string
	Desired    int32 // spec.replicas
	Current    int32 // status.replicas
	Ready      int32
	Available  int32
	Created    time.Time
	Pods       []PodRow // by name
}

// PodState is a pod's state as the glyph grid shows it.
type PodState int

const (
	PodPending     PodState = iota // not scheduled yet, or waiting on an image pull
	PodCreating                    // scheduled, containers being created
	PodNotReady                    // running, not ready
	PodReady                       // ready
	PodCrashLoop                   // a container is in CrashLoopBackOff or image pull back-off
	PodTerminating                 // being deleted
	PodFailed                      // phase Failed or Succeeded
)

// PodRow is one pod.
type PodRow struct {
	Name, Node string
	Phase      string
	State      PodState
	Ready      string // "1/2": ready containers / containers
	Restarts   int32
	Created    time.Time
	// Reason is the most telling reason: a waiting or terminated
	// container's reason, an Unschedulable condition, or the pod's reason.
	Reason string
	// Status is the STATUS word `kubectl get pods` prints (PodStatusWord).
	Status string
}

// NodeRow is one node.
type NodeRow struct {
	Name, Group string
	Ready       bool
	Schedulable bool // false when cordoned (spec.unschedulable)
	Taints      []string
	Pods        int // active pods bound to the node
	UpToDate    bool
	// Drain is the state of the node's drain (DrainDraining, DrainBlocked,
	// DrainDrained or DrainFailed), "" when none was asked.
	Drain string
	// Detached is set for a node its group no longer counts: a roll took
	// it out so that the group launches its replacement first; it runs its
	// pods until its turn to be drained comes.
	Detached bool
	// Progress is the drain and roll as the node's rollscope.dev
	// annotations tell them.
	Progress model.NodeProgress
}

// RevisionRow is one revision of a Deployment's history.
type RevisionRow struct {
	Revision int64
	// ChangeCause is what `kubectl rollout history` shows for it.
	ChangeCause string
	// Aborted, when set, is how its rollout was aborted: "revision 7
	// aborted, back on revision 6".
	Aborted  string
	Images   []string
	Created  time.Time
	Replicas int32
	Current  bool
	// Gone is set for a revision an undo renumbered: its ReplicaSet now
	// holds revision Now (and lists this one in its revision-history).
	Gone bool
	Now  int64
}

// TimelineKind sorts timeline entries.
type TimelineKind int

const (
	TimelineScale     TimelineKind = iota // a ReplicaSet changed size
	TimelineCondition                     // a Deployment condition changed
	TimelineEvent                         // a Kubernetes event
	TimelineAction                        // an action taken from the console
)

// TimelineEntry is one line of the timeline.
type TimelineEntry struct {
	Time    time.Time
	Kind    TimelineKind
	Object  string // "replicaset/frontend-7b7d5974f6"
	Message string
	Warning bool
}

// DeploymentSummary is one line of the deployment picker.
type DeploymentSummary struct {
	Namespace, Name string
	Replicas        int32
	// Total is status.replicas: the pods of every revision the
	// deployment counts, above Replicas while a rollout surges.
	Total     int32
	Updated   int32
	Available int32
	Paused    bool
	// Status is `kubectl rollout status`'s sentence; Done is true once the
	// rollout has finished; Failed once it has exceeded its progress
	// deadline (kubectl rollout status exits 1).
	Status string
	Done   bool
	Failed bool
	// Held says what a guided canary that waits for the operator holds at
	// ("canary step 1/3 held: gate failed — …"): a failed or inconclusive
	// step, or a step held until a promote; "" otherwise.
	Held string
}

// DiffLine is one line of a pod-template diff between two revisions.
type DiffLine struct {
	Op   byte // ' ' unchanged, '+' only in the newer template, '-' only in the older
	Text string
}
