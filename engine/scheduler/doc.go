// Package scheduler is the embedded default-scheduler: it binds pending pods
// to nodes through the binding subresource, the way kube-scheduler's default
// profile would for the pods a rollout makes.
//
// Filters are the ones that matter to rollouts: the node is Ready and not
// cordoned, its NoSchedule/NoExecute taints are tolerated, nodeSelector and
// required node affinity match, and the pod fits in the node's allocatable
// pods, cpu and memory. Among the nodes that pass, it prefers nodes without
// untolerated PreferNoSchedule taints, then the least loaded, then the
// fewest pods, then the first by name, so a decision depends only on the
// cluster's state.
//
// Like kube-scheduler it keeps its own per-node accounting (nodecache.go),
// updated incrementally from pod and node events and from its own bindings
// ("assumed" pods), so a decision costs one pass over the nodes and never a
// scan of all pods. It relies on its handlers seeing every pod and node from
// the start, as informers deliver them.
//
// A pod that fits nowhere keeps PodScheduled=False with reason Unschedulable
// and upstream's "0/N nodes are available: ..." message, gets a
// FailedScheduling event, and is retried when a node or pod change could make
// room, and otherwise every 10 seconds for as long as the cluster changes.
package scheduler
