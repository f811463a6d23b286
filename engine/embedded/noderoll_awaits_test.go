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

// The Nodes pane's roll line says what the roll waits for between nodes:
// a node to be Ready (GroupRoll.AwaitsReady), or more Ready nodes in the
// group (AwaitsNodes). Held against what the roll then does: from every
// node change at which the line says so until it no longer holds, the roll
// starts no drain and detaches no node — and it does say so, for each
// replacement the roll waits for while it boots, and while the group
// launches one: one node surged at a time, and two drained at once (where a drain
// can still run while a replacement boots).
func TestTheRollWaitsForWhatTheConsoleSays(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		nodes, replicas, available int
		surge, unavailable         string
		// awaited is how many replacements the roll waits for: every one
		// launched before its last old node is gone. A surged node's is
		// launched up front; without surge the last node's replacement
		// comes once the roll is over.
		awaited int
	}{
		{"surge 1, unavailable 0", 4, 8, 6, "1", "0", 4},
		{"no surge, unavailable 2", 6, 4, 3, "0", "2", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := rollAgainstTheConsole(t, groupScenario("Node", tc.nodes, 10, tc.replicas, tc.available, tc.surge, tc.unavailable))
			if seen.named != tc.awaited {
				t.Errorf("the console named %d booting nodes; want each of the %d replacements the roll waited for", seen.named, tc.awaited)
			}
			// While a drain of the pair runs the line says nothing of it,
			// so not every launch is seen short.
			if seen.short == 0 {
				t.Error("the console never said the group was short of Ready nodes while the group launched a replacement")
			}
		})
	}
}

// awaited is what the console said a roll waited for: how many nodes it
// named, and how many times it said the group was short of Ready nodes.
type awaited struct{ named, short int }

// rollAgainstTheConsole rolls the scenario's group "pool" and fails for
// every moment what the console said the roll waits for was false.
func rollAgainstTheConsole(t *testing.T, src string) awaited {
	sc, err := scenario.Parse("roll.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	var c *embedded.Cluster
	var seen awaited
	// holds reports whether what the console said last still holds of nodes.
	holds := func([]*corev1.Node) bool { return false }
	said := ""
	moving := map[string]bool{} // nodes draining or detached
	var untrue []string
	observe := func(now time.Time, ev watch.Event) {
		if _, ok := ev.Object.(*corev1.Node); !ok || c == nil {
			return
		}
		nodes, _ := c.Runner.Listers().Nodes.List(labels.Everything())
		objs := make([]runtime.Object, 0, len(nodes))
		for _, n := range nodes {
			objs = append(objs, n)
			if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining || model.NodeDetached(n) {
				if !moving[n.Name] && holds(nodes) {
					untrue = append(untrue, fmt.Sprintf("at %s %s started draining or was detached while the console said the roll %s", now.Sub(epoch), n.Name, said))
				}
				moving[n.Name] = true
			}
		}
		view := cluster.NewCluster()
		view.Apply(cluster.Batch{Objects: objs})
		g, _ := cluster.RollOf(view.Nodes(), "pool")
		before := said
		switch {
		case g.AwaitsReady != "":
			said = "waits for " + g.AwaitsReady + " to be Ready"
			holds = func(nodes []*corev1.Node) bool { return !nodeReady(nodes, g.AwaitsReady) }
		case g.AwaitsNodes > 0:
			said = fmt.Sprintf("waits for %d more Ready nodes (%d of %d)", g.AwaitsNodes, g.Ready, g.Size)
			holds = func(nodes []*corev1.Node) bool { return poolCapacity(nodes) < g.Size }
		default:
			said, holds = "", func([]*corev1.Node) bool { return false }
		}
		if said != "" && !holds(nodes) {
			untrue = append(untrue, fmt.Sprintf("at %s the console said the roll %s, which is not so", now.Sub(epoch), said))
		}
		if said != before && g.AwaitsReady != "" {
			seen.named++
		}
		if said != before && g.AwaitsNodes > 0 {
			seen.short++
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
	for _, u := range untrue {
		t.Error(u)
	}
	return seen
}

func nodeReady(nodes []*corev1.Node, name string) bool {
	for _, n := range nodes {
		if n.Name == name {
			return model.NodeReady(n)
		}
	}
	return false
}

// poolCapacity is what the roll's validation counts toward group pool's
// size: its Ready nodes, not detached, not left drained.
func poolCapacity(nodes []*corev1.Node) int {
	n := 0
	for _, node := range nodes {
		if node.Labels[model.NodeGroupLabel] == "pool" && model.NodeReady(node) && !model.NodeDetached(node) &&
			node.Annotations[model.RollNodeAnnotation] != model.RollStepDrained {
			n++
		}
	}
	return n
}
