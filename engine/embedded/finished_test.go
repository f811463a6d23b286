package embedded_test

import (
	"context"
	"testing"
	"time"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// A scripted set image reports itself before the runner has applied what
// it wrote. The built-in crashloop's first rollout has finished by then, so
// a run judged at that moment from the caches alone would be finished again
// and `--plain` would exit 0 on a rollout that is about to crash-loop.
// Finished says no until the caches hold the action's writes.
func TestARunIsNotFinishedWhileAnActionIsOnItsWay(t *testing.T) {
	sc, err := scenario.Load("crashloop")
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var cl *embedded.Cluster
	var reports int
	cl, err = embedded.Start(context.Background(), api, clock, sc, embedded.Options{
		OnAction: func(_ time.Time, kind, target, result string) {
			reports++
			if cl.Finished() {
				t.Errorf("%s %s (%s) reported while the run says it has finished", kind, target, result)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Runner.Close()
	if _, err := cl.Run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if reports == 0 {
		t.Fatal("the scenario ran no action")
	}
	if !cl.Finished() {
		t.Error("the run ended without being finished")
	}
}
