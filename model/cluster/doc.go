// Package cluster is the console's read model: its picture of the cluster,
// built from watch batches (Cluster.Apply) and read concurrently by the
// screen. It holds the objects and their indexes, the pod rows, the blocker
// line and the pod tallies behind it, the fleet book, the timeline, and the
// views the panes draw (RolloutView, PodDetail, the StatefulSet, DaemonSet
// and ReplicationController views). The rules it applies live in package
// model.
package cluster
