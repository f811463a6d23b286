package embedded_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/noderoll"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model"
	"rollscope/model/cluster"
)

// The Nodes pane's roll line says which node the roll waits to see Ready
// (GroupRoll.AwaitsReady). Held against what the roll then does: from
// every node change at which the line names a node until that node is
// Ready, the roll starts no drain and detaches no node — and it does say
// so, for each replacement it launches: one node surged at a time, and
// two drained at once (where a drain can still run while a replacement
// boots).
func TestTheRollWaitsForTheNodeTheConsoleNames(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		nodes, replicas, available int
		surge, unavailable         string
		// awaited is how many replacements the roll waits for: every one
		// launched before its last old node is gone. A surged node's is
		// launched up front; without surge the last node's replacement
		// boots once the roll is over.
		awaited int
	}{
		{"surge 1, unavailable 0", 4, 8, 6, "1", "0", 4},
		{"no surge, unavailable 2", 6, 4, 3, "0", "2", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			named := rollAgainstTheConsole(t, groupScenario("Node", tc.nodes, 10, tc.replicas, tc.available, tc.surge, tc.unavailable))
			if len(named) != tc.awaited {
				t.Errorf("the console named %v as awaited; want each of the %d replacements the roll waited for", named, tc.awaited)
			}
		})
	}
}

// rollAgainstTheConsole rolls the scenario's group and fails for every
// moment the console's awaited node was false; it returns the nodes the
// console named.
func rollAgainstTheConsole(t *testing.T, src string) map[string]bool {
	sc, err := scenario.Parse("roll.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var c *embedded.Cluster
	claim, named := "", map[string]bool{}
	moving := map[string]bool{} // nodes draining or detached
	var false_ []string
	observe := func(now time.Time, ev watch.Event) {
		if _, ok := ev.Object.(*corev1.Node); !ok || c == nil {
			return
		}
		nodes, _ := c.Runner.Listers().Nodes.List(labels.Everything())
		ready, objs := map[string]bool{}, make([]runtime.Object, 0, len(nodes))
		for _, n := range nodes {
			ready[n.Name] = model.NodeReady(n)
			objs = append(objs, n)
			if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining || model.NodeDetached(n) {
				if !moving[n.Name] && claim != "" && !ready[claim] {
					false_ = append(false_, fmt.Sprintf("at %s %s started draining or was detached while the console said the roll waits for %s, still NotReady",
						now.Sub(epoch), n.Name, claim))
				}
				moving[n.Name] = true
			}
		}
		view := cluster.NewCluster()
		view.Apply(cluster.Batch{Objects: objs})
		claim = ""
		for _, g := range cluster.GroupRolls(view.Nodes()) {
			if g.AwaitsReady != "" {
				claim = g.AwaitsReady
				named[claim] = true
				if ready[claim] {
					false_ = append(false_, fmt.Sprintf("at %s the console said the roll waits for %s, which is Ready", now.Sub(epoch), claim))
				}
			}
		}
	}
	c, err = embedded.Start(context.Background(), api, clock, sc, embedded.Options{Observers: []sim.Observer{observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Runner.Run(context.Background(), sim.RunOptions{Until: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := noderoll.Request(context.Background(), api.Client(), "pool", noderoll.Options{}, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if end, err := c.Run(context.Background(), 0); err != nil || end != sim.EndQuiescent {
		t.Fatalf("run ended %q: %v", end, err)
	}
	for _, f := range false_ {
		t.Error(f)
	}
	return named
}
