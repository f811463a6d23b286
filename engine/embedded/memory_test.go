package embedded_test

import (
	"os"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
)

// A run sets a memory limit only when its scenario is large enough that the
// collector's target would let the heap grow past what the limit allows:
// none for the 10,000-replica rollout, one under the 1.2 GB the
// 100,000-replica rollout must stay within, and a DaemonSet counts one pod
// per node.
func TestSimulationMemoryLimitFollowsTheScenarioSize(t *testing.T) {
	load := func(file string) *scenario.Scenario {
		t.Helper()
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	for _, file := range []string{"../../testdata/scenarios/rollout-10k.yaml", "../../testdata/scenarios/rollout-1k.yaml", "../../testdata/scenarios/daemonset-1k-nodes.yaml"} {
		if got := embedded.SimulationMemoryLimit(load(file)); got != 0 {
			t.Errorf("%s: memory limit %d, want none", file, got)
		}
	}
	big := load("../../testdata/scenarios/rollout-100k.yaml")
	if got := embedded.SimulationMemoryLimit(big); got < 1_000_000_000 || got > 1_200_000_000 {
		t.Errorf("rollout-100k: memory limit %d, want between 1 GB and 1.2 GB", got)
	}
	ds := load("../../testdata/scenarios/daemonset-1k-nodes.yaml")
	ds.NodeGroups[0].Size = 100_000
	if got := embedded.SimulationMemoryLimit(ds); got == 0 {
		t.Errorf("a DaemonSet on 100,000 nodes sets no memory limit")
	}
}

// A scenario of several clusters runs them in one process: the limit counts
// the replicas of all of them (regions: three clusters of 6, then of 40,000).
func TestSimulationMemoryLimitCountsEveryCluster(t *testing.T) {
	sc, err := scenario.Load("regions")
	if err != nil {
		t.Fatal(err)
	}
	if got := embedded.SimulationMemoryLimit(sc); got != 0 {
		t.Errorf("18 replicas in three clusters: memory limit %d, want none", got)
	}
	for _, c := range sc.Clusters {
		for _, obj := range c.Objects {
			if d, ok := obj.(*appsv1.Deployment); ok {
				d.Spec.Replicas = ptr.To[int32](40_000)
			}
		}
	}
	// 120,000 replicas: as one cluster of as many would be held.
	if got := embedded.SimulationMemoryLimit(sc); got < 1_300_000_000 || got > 1_450_000_000 {
		t.Errorf("120,000 replicas in three clusters: memory limit %d, want about 1.35 GB", got)
	}
}
