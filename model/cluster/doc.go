// Package cluster is the console's read model: its picture of the cluster,
// built from watch batches (Cluster.Apply) and read concurrently by the
// screen. It holds the objects and their indexes, the pod rows, the blocker
// line and the pod tallies behind it, the fleet book, the timeline, and the
// views the panes draw (RolloutView, PodDetail, the StatefulSet, DaemonSet
// and ReplicationController views). The rules it applies live in package
// model. Rendering never reads a Kubernetes object: what the screen draws
// comes from this package's views, plain values (view.go).
//
// # Why a rollout is stuck
//
// Cluster.Blocker derives one line from the Deployment, its ReplicaSets,
// their pods, the pods' events and the nodes' drain annotations. The picture
// keeps what the line counts of each ReplicaSet's pods up to date as pods
// arrive, change and go (tally.go's podTally, keyed by owner UID and
// namespace): the pods that cannot pull, crash, or are bound but not ready,
// each in a heap with the one the line would name on top; the terminating
// pods by grace period; the ready pods by when they became ready, oldest
// first, judged against minReadySeconds only when read (what depends on the
// clock is kept as times). So the line of a rollout of thousands of pods
// costs what changed, not a pass over every pod on every redraw. The same way
// the picture keeps each node's active pods for the node list and patches
// each ReplicaSet's kept pod rows with the pods that changed. `--plain`
// prints Cluster.Blocker when it names something else (SameBlocker: a line
// only the clock moved is the same).
//
// # The fleet
//
// Cluster.Fleet is read on every refresh, up to 20 times a second, over every
// workload of the cluster, so its rows are kept (book.go marks, standing.go
// reads): Apply marks a row dirty when its workload, its ReplicaSets or
// ControllerRevisions, one of its pods, a node under its pods, or an event
// about one of its pods changed. A rolled-out workload reads its pods only for
// what flags them (crash loop, pull error, unschedulable) and for the nodes
// being drained or cordoned, so its pods coming, going or turning ready leave
// its row as it was. A refresh derives only the dirty rows (derive.go),
// rebuilds each second the rows whose line counts seconds, turns rollouts that
// made no progress for fleetStuckAfter stuck, and hands out one shared,
// clipped slice until a row changes (readers must not modify it).
//
// # Workload kinds
//
// A workload kind's knowledge here is one file: its view and its fleet row
// (deployments.go, rc.go, statefulset.go, daemonset.go), added to the kinds
// table (kinds.go) from the file's var block. The rest is generic over the
// registry (package kind): the store keeps every kind but Deployments by
// kind and name (workloadstore.go), compares their figures to tell whether a
// rollout moved, and derives a row through the table. A new kind's objects
// are kept and watched for as soon as the registry knows it; its file gives
// them a row.
package cluster
