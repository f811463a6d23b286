package model

// The labels and annotations rollscope's node groups, drains and node rolls
// keep on nodes, and the values they take: the wire format that lets a
// drain or a roll survive a restart of rollscope and that the console reads.
// engine/nodegroup, engine/drain and engine/noderoll write them; this is
// their one spelling.
const (
	// NodeGroupLabel names a node's instance group (kops' own label).
	NodeGroupLabel = "kops.k8s.io/instancegroup"
	// NodeSpecAnnotation records the group spec a node was created from; a
	// node whose spec is not its group's current one is out of date.
	NodeSpecAnnotation = Prefix + "node-spec"
	// DetachedAnnotation, set to "true" on a node, detaches it from its
	// group as kops does to surge: the group stops counting it and launches
	// a replacement, and the detached node stays until it is drained and
	// terminated.
	DetachedAnnotation = Prefix + "detached"

	// DrainRequestAnnotation asks for a drain; its value is the drain's
	// options as JSON (engine/drain.Options).
	DrainRequestAnnotation = Prefix + "drain-request"
	// DrainStateAnnotation is the drain's state, one of the Drain states.
	DrainStateAnnotation = Prefix + "drain"
	// DrainStartedAnnotation is when the drain started (RFC 3339), for its timeout.
	DrainStartedAnnotation = Prefix + "drain-started"
	// DrainPodsLeftAnnotation is how many pods the drain still waits for.
	DrainPodsLeftAnnotation = Prefix + "drain-pods-left"
	// DrainBlockedAnnotation names the pods a PodDisruptionBudget refuses to
	// let go, with the budget and the disruptions it allows, "; "-separated.
	DrainBlockedAnnotation = Prefix + "drain-blocked"
	// DrainMessageAnnotation is why a drain failed, or the warnings of one
	// that succeeded ("ignoring DaemonSet-managed Pods: ...").
	DrainMessageAnnotation = Prefix + "drain-message"

	// RollAnnotation holds a node-group roll's settings (JSON); its presence
	// puts the node in the roll.
	RollAnnotation = Prefix + "roll"
	// RollStateAnnotation is the roll's state, one of the Roll states, the
	// same on every node of the roll.
	RollStateAnnotation = Prefix + "roll-state"
	// RollMessageAnnotation says why a roll failed or what a stop left behind.
	RollMessageAnnotation = Prefix + "roll-message"
	// RollNodeAnnotation is the node's own step in the roll: "" (not
	// started), RollStepDraining or RollStepDrained.
	RollNodeAnnotation = Prefix + "roll-node"
	// RollFailsAtAnnotation is when the roll fails unless the cluster
	// validates first (RFC 3339): its validation timeout from when the
	// validation began to fail. It is on one node of the roll while the
	// validation fails, and gone once it passes or the roll ends; a roll
	// restarted meanwhile keeps the deadline, as a drain keeps its start.
	RollFailsAtAnnotation = Prefix + "roll-fails-at"
)

// Drain states, the values of DrainStateAnnotation.
const (
	DrainDraining = "draining" // evicting, or waiting for evicted pods to go
	DrainBlocked  = "blocked"  // a PodDisruptionBudget refuses an eviction; retried every 5 s
	DrainDrained  = "drained"  // every pod that had to go is gone; the node stays cordoned
	DrainFailed   = "failed"   // refused pods, timed out, or invalid options; the node stays cordoned
)

// DrainOver reports whether a drain in state has said its last word:
// drained or failed. Any other state, or none yet, is still under way.
func DrainOver(state string) bool { return state == DrainDrained || state == DrainFailed }

// Roll states, the values of RollStateAnnotation. Running, paused and
// waiting still have work to do; the others are the roll's last word.
const (
	RollRunning  = "running"  // rolling; in step mode until the next node is done
	RollPaused   = "paused"   // finishing the nodes in flight, starting no more
	RollWaiting  = "waiting"  // step mode: a node is done, waiting for the operator
	RollStopped  = "stopped"  // stopped by the operator; nodes left as the message says
	RollFailed   = "failed"   // a drain failed or the cluster did not validate
	RollFinished = "finished" // every node drained (live cluster without node deletion)
)

// RollActive reports whether a roll in state still has work to do:
// running, paused or waiting for the operator.
func RollActive(state string) bool {
	return state == RollRunning || state == RollPaused || state == RollWaiting
}

// RollResumable reports whether a roll in state ended in a way the operator
// can start again with its saved settings: stopped or failed, with its
// outdated nodes left. A finished roll has nothing left to do.
func RollResumable(state string) bool { return state == RollStopped || state == RollFailed }

// A node's steps in a roll, the values of RollNodeAnnotation.
const (
	RollStepDraining = "draining"
	// RollStepDrained: drained and left cordoned, on a cluster whose nodes
	// rollscope cannot replace, for the user's machinery to replace.
	RollStepDrained = "drained"
)
