package noderoll

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model"
)

// A node deleted by someone else while it drains (an autoscaler, a spot
// termination, an operator) counts as replaced: the roll says so and
// validates the cluster before it starts the next node.
func TestNodeDeletedMidDrainGatesTheNextNode(t *testing.T) {
	sp := `{"id":"r1","group":"pool","role":"Node","size":2,"count":2}`
	draining := liveNode("pool-a", sp)
	draining.Annotations[model.DrainStateAnnotation] = model.DrainDraining
	next := liveNode("pool-b", sp)
	next.Annotations[model.RollNodeAnnotation] = ""
	delete(next.Annotations, model.DrainRequestAnnotation)
	delete(next.Annotations, model.DrainStateAnnotation)
	next.Spec.Unschedulable = false
	h := controltest.New(t, draining, next)
	c := New(h.Env, nil)
	h.Watch(c)
	ctx := context.Background()
	if err := c.Sync(ctx, "pool"); err != nil {
		t.Fatal(err)
	}
	h.Observe(control.Nodes)

	h.Delete(draining)
	if err := c.Sync(ctx, "pool"); err != nil {
		t.Fatal(err)
	}
	h.Observe(control.Nodes)
	n, err := h.Client.CoreV1().Nodes().Get(ctx, "pool-b", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := n.Annotations[model.RollMessageAnnotation]; !strings.Contains(msg, "node pool-a was deleted while it drained, not by this roll") {
		t.Errorf("roll message %q, want it to say pool-a went away mid-drain", msg)
	}
	if n.Annotations[model.RollStateAnnotation] != model.RollRunning || n.Annotations[model.RollNodeAnnotation] != "" {
		t.Errorf("pool-b: roll %q, step %q; want the roll running and pool-b waiting for the interval and validation",
			n.Annotations[model.RollStateAnnotation], n.Annotations[model.RollNodeAnnotation])
	}
}
