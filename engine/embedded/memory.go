package embedded

import (
	"cmp"
	"os"
	"runtime/debug"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/engine/play"
	"rollscope/engine/scenario"
	"rollscope/model/kind"
)

// heapPerReplica is what a full-speed run's collector may let the heap grow
// to per replica the scenario declares, and about the peak RSS a replica
// costs. What a run holds at its fullest is 5–6 KB a replica (the pod, its
// events — an hour's worth, as upstream keeps them — and every controller's
// and cache's entry for it: 290 MB in the 50,000-replica rollout, 560 MB in
// the 100,000 one, 760 MB in the 150,000 one, as the collector counts it);
// 11 KiB leaves the collector about as much again to allocate between
// collections, so it does not run without pause. A larger allowance buys no
// CPU: at 14 KiB, and with no limit at all, those rollouts took as long or
// longer (the system time of faulting in the extra memory outweighs the
// collections saved; docs/performance.md has the runs).
const heapPerReplica = 11 << 10

// memoryLimitFloor is the smallest limit set: below it the collector's
// target (SimulationGCPercent) alone keeps a run small enough. From about
// 48,000 replicas up the target would let the heap reach three times what
// the run holds (a peak RSS of 860 MB at 50,000 replicas, against 570 MB
// under the limit).
const memoryLimitFloor = 512 << 20

// SimulationMemoryLimit is the soft memory limit (runtime/debug's
// SetMemoryLimit) `rollscope simulate` runs sc with, or 0 for none. At the
// collector's target of 200 a run's heap grows to three times what it holds
// before a collection; for scenarios large enough for that to matter the
// limit holds it to heapPerReplica a replica instead.
func SimulationMemoryLimit(sc *scenario.Scenario) int64 {
	limit := int64(declared(sc).pods()) * heapPerReplica
	if limit < memoryLimitFloor {
		return 0
	}
	return limit
}

// SetSimulationCollector sets the collector `rollscope simulate` runs sc
// with at full speed: the target SimulationGCPercent and, for a scenario
// large enough, the memory limit SimulationMemoryLimit, unless GOMEMLIMIT
// in the environment says otherwise (off: none). restore puts back what
// they were (a benchmark's run in a test binary).
func SetSimulationCollector(sc *scenario.Scenario) (restore func()) {
	percent, limit := debug.SetGCPercent(SimulationGCPercent), debug.SetMemoryLimit(-1)
	if l := SimulationMemoryLimit(sc); l > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(l)
	}
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// asked is what a scenario asks of the process's memory, in pods: the
// replicas its workloads declare, each at the most a scale action takes it
// to (one per node for a DaemonSet), and the surge its scripted rollouts
// bring up beside them beyond the quarter more that heapPerReplica and
// watchedPerReplica hold already (they were measured through rollouts at
// the default maxSurge of 25 %): a rollout at maxSurge 100 % or a
// blue/green preview brings up its whole size again. Those of every cluster
// of a scenario of several, which one process runs side by side.
type asked struct{ replicas, surge int }

func (a asked) pods() int { return a.replicas + a.surge }

func (a asked) and(b asked) asked { return asked{a.replicas + b.replicas, a.surge + b.surge} }

func declared(sc *scenario.Scenario) asked {
	n := ownPods(sc)
	for _, c := range sc.Clusters {
		n = n.and(declared(c))
	}
	return n
}

// ownPods is what sc's own workloads ask for.
func ownPods(sc *scenario.Scenario) asked {
	nodes := 0
	for _, g := range sc.NodeGroups {
		nodes += g.Size
	}
	scaledTo := map[scenario.Target]int32{}
	rolled := map[scenario.Target]bool{}
	for _, a := range sc.Actions {
		t := a.Target
		t.Namespace = cmp.Or(t.Namespace, sc.Namespace)
		if a.Kind == scenario.ActionScale {
			scaledTo[t] = max(scaledTo[t], a.Replicas)
		}
		if play.StartsRollout(a) {
			rolled[t] = true
		}
	}
	var n asked
	for _, obj := range sc.Objects {
		if w, ok := kind.Of(obj); ok {
			t := scenario.Target{Kind: w.Kind(), Name: w.GetName(), Namespace: cmp.Or(w.GetNamespace(), sc.Namespace)}
			size, scaled := w.Replicas()
			if scaled {
				size = max(size, scaledTo[t])
			} else { // one pod per node
				size = int32(nodes)
			}
			n.replicas += int(size)
			if rolled[t] {
				n.surge += max(0, int(w.At(size).Surge())-(int(size)+3)/4)
			}
		} else if rs, ok := obj.(*appsv1.ReplicaSet); ok {
			n.replicas += replicas(rs.Spec.Replicas)
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
