package noderoll

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model"
)

// liveNode is a Ready node of group "pool" in a roll, its drain finished.
func liveNode(name string, sp string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{model.NodeGroupLabel: "pool"},
			Annotations: map[string]string{
				model.NeedsUpdateAnnotation: "", model.RollAnnotation: sp, model.RollStateAnnotation: model.RollRunning,
				model.RollNodeAnnotation: model.RollStepDraining, model.DrainRequestAnnotation: "{}", model.DrainStateAnnotation: model.DrainDrained,
			},
		},
		Spec:   corev1.NodeSpec{Unschedulable: true},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
	}
}

// On a cluster whose groups rollscope does not run, a drained node is left
// drained and cordoned for the user's machinery unless DeleteNodes is set.
func TestLiveClusterLeavesDrainedNodesUnlessAllowedToDelete(t *testing.T) {
	for _, deleteNodes := range []bool{false, true} {
		sp := `{"id":"r1","group":"pool","role":"Node","size":2,"count":2}`
		if deleteNodes {
			sp = `{"id":"r1","group":"pool","role":"Node","size":2,"count":2,"deleteNodes":true}`
		}
		other := liveNode("pool-b", sp)
		other.Annotations[model.RollNodeAnnotation] = ""
		delete(other.Annotations, model.DrainRequestAnnotation)
		delete(other.Annotations, model.DrainStateAnnotation)
		other.Spec.Unschedulable = false
		h := controltest.New(t, liveNode("pool-a", sp), other)
		c := New(h.Env, nil)
		h.Watch(c)
		if err := c.Sync(context.Background(), "pool"); err != nil {
			t.Fatal(err)
		}
		_, err := h.Client.CoreV1().Nodes().Get(context.Background(), "pool-a", metav1.GetOptions{})
		if deleteNodes {
			if err == nil {
				t.Error("deleteNodes: the drained node was not deleted")
			}
			continue
		}
		n, err := h.Client.CoreV1().Nodes().Get(context.Background(), "pool-a", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("without deleteNodes the node must stay: %v", err)
		}
		if n.Annotations[model.RollNodeAnnotation] != model.RollStepDrained || !n.Spec.Unschedulable {
			t.Errorf("roll-node %q unschedulable %v, want drained and cordoned", n.Annotations[model.RollNodeAnnotation], n.Spec.Unschedulable)
		}
		// Validation now waits for replacement capacity: the drained node
		// no longer counts.
		h.Observe(control.Nodes)
		nodes, _ := h.Env.Listers.Nodes.List(everything())
		if reason := validate(h.Env.Listers, nodes, spec{Group: "pool", Size: 2}); reason != "group pool has 1 of 2 nodes Ready (waiting for replacements)" {
			t.Errorf("validation %q, want it to wait for a replacement", reason)
		}
	}
}

func everything() labels.Selector { return labels.Everything() }
