package forecast_test

import (
	"context"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/workloads"
	"rollscope/kube/memapi"
)

// An undo forecast in the middle of the stateful scenario's partitioned
// canary — pods terminating, pods not ready yet, a status still counting a
// pod being deleted — ends with every pod back and available, never
// "removing" a pod the controller only replaces.
func TestWorkloadForecastMidRollout(t *testing.T) {
	sc, err := scenario.Load("stateful")
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: 1})
	cl, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, at := range []time.Duration{62 * time.Second, 66 * time.Second, 70 * time.Second, 123 * time.Second, 127 * time.Second, 183 * time.Second, 186 * time.Second} {
		cl.Runner.At(at, func() {
			st, err := forecast.ReadWorkload(ctx, cl.Client, db, clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			f, err := forecast.SimulateWorkload(ctx, memapiBackend, st, forecast.PodReadiness(0, st.Pods), func(ctx context.Context, c kubernetes.Interface, at actions.Target) error {
				_, err := workloads.Undo(ctx, c, db, 1)
				return err
			})
			if err != nil || f.Outcome != forecast.Finished || len(f.Removed) > 0 || len(f.Created) > 0 || f.PeakPods != 5 || f.LowestAvailable < 3 {
				t.Errorf("at %v: %+v, %v", at, f, err)
			}
			t.Logf("%v: %s", at, f)
		})
	}
	if _, err := cl.Run(ctx, 200*time.Second); err != nil {
		t.Fatal(err)
	}
}
