package embedded_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// Every built-in scenario's nodes are there before its workloads, as in a
// cluster one deploys to: in its first second no pod is found with no node
// to go to (a FailedScheduling the Timeline, --plain and the fleet would
// report as a stuck rollout for workloads that are fine).
func TestBuiltinScenariosStartWithNoFailedScheduling(t *testing.T) {
	for _, name := range scenario.Builtins() {
		t.Run(name, func(t *testing.T) {
			for _, sc := range clustersOf(load(t, name)) {
				startsWithNoFailedScheduling(t, sc)
			}
		})
	}
}

// clustersOf is each cluster a scenario runs: its clusters:, or itself.
func clustersOf(sc *scenario.Scenario) []*scenario.Scenario {
	if len(sc.Clusters) > 0 {
		return sc.Clusters
	}
	return []*scenario.Scenario{sc}
}

func startsWithNoFailedScheduling(t *testing.T, sc *scenario.Scenario) {
	t.Helper()
	clock := sim.NewClock(epoch)
	cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed}), clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(context.Background(), 2*time.Second); err != nil {
		t.Fatal(err)
	}
	events, err := cl.Client.CoreV1().Events(metav1.NamespaceAll).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scheduled := 0
	for _, e := range events.Items {
		at := e.LastTimestamp.Time
		if at.IsZero() {
			at = e.CreationTimestamp.Time
		}
		switch {
		case e.Reason == "Scheduled":
			scheduled++
		case e.Reason == "FailedScheduling" && at.Sub(epoch) < time.Second:
			t.Errorf("FailedScheduling at %s for %s/%s: %s", at.Sub(epoch), e.InvolvedObject.Namespace, e.InvolvedObject.Name, e.Message)
		}
	}
	if scheduled == 0 {
		t.Errorf("%s: no pod was scheduled in the first 2s: the check saw no scheduler at work", sc.Cluster)
	}
}
