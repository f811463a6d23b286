package embedded_test

import (
	"context"
	"os"
	"testing"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// benchRollout runs a whole scenario (creation, settling, a rollout to a new
// image) at full speed, the way `rollscope simulate` does minus the trace.
func benchRollout(b *testing.B, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := scenario.Parse(file, src)
	if err != nil {
		b.Fatal(err)
	}
	defer embedded.SetSimulationCollector(sc)()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		clock := sim.NewClock(epoch)
		api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
		c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{})
		if err != nil {
			b.Fatal(err)
		}
		end, err := c.Run(context.Background(), 0)
		if err != nil || end != sim.EndQuiescent {
			b.Fatalf("run ended %q: %v", end, err)
		}
		b.ReportMetric(c.Elapsed().Seconds(), "virtual-s/op")
		if i == 0 {
			b.Logf("syncs per controller: %v", c.Runner.Syncs())
		}
		c.Runner.Close()
	}
}

func BenchmarkRollout1kReplicas50Nodes(b *testing.B) {
	benchRollout(b, "../../testdata/scenarios/rollout-1k.yaml")
}

func BenchmarkRollout10kReplicas500Nodes(b *testing.B) {
	benchRollout(b, "../../testdata/scenarios/rollout-10k.yaml")
}

func BenchmarkDaemonSetRoll1kNodes(b *testing.B) {
	benchRollout(b, "../../testdata/scenarios/daemonset-1k-nodes.yaml")
}

func BenchmarkStatefulSetRoll500Replicas(b *testing.B) {
	benchRollout(b, "../../testdata/scenarios/statefulset-500.yaml")
}

// The same rollout at 100,000 replicas on 5,000 nodes. With the 1,000 and
// 10,000 runs above it shows how the cost grows with the replicas; it takes
// minutes, so run it on its own: -bench Rollout100k -benchtime 1x.
func BenchmarkRollout100kReplicas5000Nodes(b *testing.B) {
	benchRollout(b, "../../testdata/scenarios/rollout-100k.yaml")
}

// Kubernetes' scalability envelope: 150,000 pods on 5,000 nodes. With the
// 1k / 10k / 100k runs it shows whether the cost grows linearly; minutes,
// run it on its own: -bench Rollout150k -benchtime 1x.
func BenchmarkRollout150kReplicas5000Nodes(b *testing.B) {
	benchRollout(b, "../../testdata/scenarios/rollout-150k.yaml")
}
