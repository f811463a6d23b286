package noderoll

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/model"
)

// A budget that allows no disruption at all (minAvailable = replicas) makes
// a drain with a timeout fail, saying so on the node, which stays cordoned;
// a node deleted while its drain waits is gone for every later request,
// with an error that says so; rolls of an unknown group or with more than
// the whole group unavailable are refused before anything is written.
func (c *cluster) drainTimesOutAndNodeGoes(t *testing.T) {
	w := workload{namespace: "stuck", group: stuckGroup.Name, replicas: 2, minimum: 2}
	w.create(t, c.Admin)
	startRoller(t, c.Admin)
	ctx := t.Context()
	pods, err := c.Admin.CoreV1().Pods(w.namespace).List(ctx, metav1.ListOptions{})
	if err != nil || len(pods.Items) == 0 {
		t.Fatalf("listing the pods of %s: %d pods, %v", w.namespace, len(pods.Items), err)
	}
	node := pods.Items[0].Spec.NodeName

	// kubectl drain --ignore-daemonsets --timeout 3s
	if err := drain.Request(ctx, c.Admin, node, drain.Options{IgnoreDaemonSets: true, Timeout: drain.Duration(3 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	n := waitDrain(t, c, node, model.DrainFailed)
	msg := n.Annotations[model.DrainMessageAnnotation]
	for _, want := range []string{"drain did not finish within 3s", "pods left (stuck/web-", "the node stays cordoned — uncordon it or drain again with a longer timeout"} {
		if !strings.Contains(msg, want) {
			t.Errorf("drain message %q, want it to say %q", msg, want)
		}
	}
	if !n.Spec.Unschedulable {
		t.Error("the node was uncordoned by a failed drain; kubectl leaves it cordoned")
	}
	if b := n.Annotations[model.DrainBlockedAnnotation]; b != "" {
		t.Errorf("a failed drain still says it is blocked: %q", b)
	}
	if got := w.available(t, c.Admin); got != w.replicas {
		t.Errorf("%d of %d pods available after a drain the budget refused", got, w.replicas)
	}

	// Drain it again without a timeout: it waits on the budget until the
	// node is deleted under it, as a cloud terminating the machine does.
	if err := drain.Request(ctx, c.Admin, node, drain.Options{IgnoreDaemonSets: true}); err != nil {
		t.Fatal(err)
	}
	n = waitDrain(t, c, node, model.DrainBlocked)
	if b := n.Annotations[model.DrainBlockedAnnotation]; !strings.Contains(b, "PodDisruptionBudget stuck/web allows 0 disruptions (2 healthy, 2 needed)") {
		t.Errorf("blocked annotation %q, want the budget that refuses and what it allows", b)
	}
	if err := c.Admin.CoreV1().Nodes().Delete(ctx, node, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting node %s mid-drain: %v", node, err)
	}
	for what, call := range map[string]func() error{
		"drain":  func() error { return drain.Request(ctx, c.Admin, node, drain.Options{}) },
		"cordon": func() error { return drain.Cordon(ctx, c.Admin, node) },
	} {
		err := call()
		want := fmt.Sprintf("cannot %s node %q: no such node (it may have been deleted or replaced; list the nodes to pick another)", what, node)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s of the deleted node %s: %v, want %q", what, node, err, want)
		}
	}
	if err := drain.Request(ctx, c.Admin, "stuck-99", drain.Options{}); err == nil || !strings.Contains(err.Error(), `cannot drain node "stuck-99": no such node`) {
		t.Errorf("draining a node that never existed: %v", err)
	}
	// Rolls refused before anything is written: an unknown group, and more
	// than the whole group unavailable.
	if err := noderoll.Request(ctx, c.Admin, "gpu", noderoll.Options{}, time.Now()); err == nil ||
		!strings.Contains(err.Error(), `node group "gpu" has no nodes (groups: alone, budget, masters, pause, resume, stuck, twenty, vanish)`) {
		t.Errorf("rolling a group that does not exist: %v", err)
	}
	over := intstr.FromString("150%")
	if err := noderoll.Request(ctx, c.Admin, w.group, noderoll.Options{MaxUnavailable: &over}, time.Now()); err == nil ||
		!strings.Contains(err.Error(), `maxUnavailable 150% is outside 0%–100% of the group's nodes (write at most 100%, or a node count)`) {
		t.Errorf("rolling with maxUnavailable 150%%: %v", err)
	}
	if nodes, err := groupNodes(ctx, c.Admin, w.group); err == nil {
		for _, n := range nodes {
			if _, ok := n.Annotations[model.RollAnnotation]; ok {
				t.Errorf("a refused roll was written on node %s", n.Name)
			}
		}
	}
	// The group brings a machine of the current spec in its place.
	poll(t, "group stuck back at 2 Ready nodes", func(ctx context.Context) (bool, string, error) {
		nodes, err := groupNodes(ctx, c.Admin, w.group)
		if err != nil {
			return false, "", err
		}
		var names []string
		ready := 0
		for _, n := range nodes {
			names = append(names, n.Name)
			if model.NodeReady(&n) && n.Name != node {
				ready++
			}
		}
		return ready == 2, fmt.Sprintf("nodes %v", names), nil
	})
}

// waitDrain waits until node's drain reaches state and returns the node.
func waitDrain(t *testing.T, c *cluster, node, state string) *corev1.Node {
	t.Helper()
	var got *corev1.Node
	poll(t, fmt.Sprintf("the drain of %s %s", node, state), func(ctx context.Context) (bool, string, error) {
		n, err := c.Admin.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		got = n
		return n.Annotations[model.DrainStateAnnotation] == state,
			fmt.Sprintf("state %q, message %q", n.Annotations[model.DrainStateAnnotation], n.Annotations[model.DrainMessageAnnotation]), nil
	})
	return got
}
