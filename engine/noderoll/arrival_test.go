package noderoll

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/control"
	"rollscope/engine/control/controltest"
	"rollscope/model"
)

// On a live cluster the controller's cache can hold the roll on some of the
// outdated nodes and not yet on the others: the controller must wait for
// the rest rather than take them for up-to-date nodes (which would start two
// drains where kops takes the first node alone, and leave them untainted).
func TestRollWaitsForItsWholeRequestToReachTheCache(t *testing.T) {
	sp := `{"id":"` + controltest.Start.Format(time.RFC3339Nano) + `","group":"pool","role":"Node","size":2,"count":2,"maxUnavailable":2}`
	node := func(name string, inRoll bool) *corev1.Node {
		n := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{model.NodeGroupLabel: "pool"},
				Annotations: map[string]string{model.NeedsUpdateAnnotation: ""}},
			Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
		}
		if inRoll {
			n.Annotations[model.RollAnnotation], n.Annotations[model.RollStateAnnotation] = sp, model.RollRunning
		}
		return n
	}
	h := controltest.New(t, node("pool-0", true), node("pool-1", false))
	c := New(h.Env, nil)
	h.Watch(c)
	ctx := context.Background()
	if err := c.Sync(ctx, "pool"); err != nil {
		t.Fatal(err)
	}
	if got := h.Observe(control.Nodes); len(got) != 0 {
		t.Fatalf("with half the request in the cache the roll changed %d nodes; want it to wait", len(got))
	}

	h.Update(node("pool-1", true))
	for range 3 { // validate and taint, then start the drain
		if err := c.Sync(ctx, "pool"); err != nil {
			t.Fatal(err)
		}
		h.Observe(control.Nodes)
	}
	var draining []string
	for _, name := range []string{"pool-0", "pool-1"} {
		n, err := h.Env.Listers.Nodes.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if !hasTaint(n) {
			t.Errorf("%s lacks %s once the whole request arrived", name, TaintScheduledForUpdate.Key)
		}
		if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining {
			draining = append(draining, name)
		}
	}
	if len(draining) != 1 {
		t.Errorf("draining %v, want the first node alone (maxUnavailable 2, none up to date)", draining)
	}
}
