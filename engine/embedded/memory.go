package embedded

import (
	appsv1 "k8s.io/api/apps/v1"

	"rollscope/engine/scenario"
	"rollscope/model/kind"
)

// heapPerReplica is what a full-speed run's collector may let the heap grow
// to per replica the scenario declares. What a run holds is 7–9 KB a replica
// (the pod, its events — an hour's worth, as upstream keeps them — and every
// controller's and cache's entry for it: 720 MB reachable in the middle of
// the 100,000-replica rollout, 740 MB at its end, up to 900 MB as the
// collector counts it, with what is allocated while it marks); 14 KiB keeps
// that run under 1.5 GB and still leaves the collector hundreds of megabytes
// to allocate between collections, so it does not run without pause.
const heapPerReplica = 14 << 10

// memoryLimitFloor is the smallest limit set: below it the collector's
// target (SimulationGCPercent) alone keeps a run small enough, and collects
// less often than a limit would.
const memoryLimitFloor = 1 << 30

// SimulationMemoryLimit is the soft memory limit (runtime/debug's
// SetMemoryLimit) `rollscope simulate` runs sc with, or 0 for none. At the
// collector's target of 200 a run's heap grows to three times what it holds
// before a collection: 2.5–3.3 GB for the 100,000-replica rollout. For
// scenarios that large the limit holds it to 14 KiB a replica instead, at
// the cost of more frequent collections (27 instead of 20 in that rollout,
// about a third more CPU).
func SimulationMemoryLimit(sc *scenario.Scenario) int64 {
	limit := int64(declaredReplicas(sc)) * heapPerReplica
	if limit < memoryLimitFloor {
		return 0
	}
	return limit
}

// declaredReplicas counts the pods sc's workloads ask for: replicas of
// Deployments, ReplicaSets, ReplicationControllers and StatefulSets, and one
// per node for each DaemonSet.
func declaredReplicas(sc *scenario.Scenario) int {
	nodes := 0
	for _, g := range sc.NodeGroups {
		nodes += g.Size
	}
	n := 0
	for _, obj := range sc.Objects {
		if w, ok := kind.Of(obj); ok {
			if r, scaled := w.Replicas(); scaled {
				n += int(r)
			} else { // one pod per node
				n += nodes
			}
		} else if rs, ok := obj.(*appsv1.ReplicaSet); ok {
			n += replicas(rs.Spec.Replicas)
		}
	}
	return n
}

// replicas is spec.replicas, which the API defaults to 1.
func replicas(r *int32) int {
	if r == nil {
		return 1
	}
	return int(*r)
}
