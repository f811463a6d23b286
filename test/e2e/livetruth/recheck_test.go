package livetruth

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// drainRecheckFlow: the drain dialog of a node is at its confirmation
// when someone else cordons the node (kubectl cordon's patch); y previews
// the node again from the API server, sends nothing, and says the node was
// cordoned. The node keeps the spec and annotations the cordon left, and
// its pods stay.
func drainRecheckFlow(t *testing.T, c *cluster) {
	const ns = "drain-recheck"
	c.deploy(t, ns, "e2e.example/web:v1")
	s := c.console(t, 200, 50, c.CP.AdminKubeconfig, ns)
	s.WaitFor("successfully rolled out")
	s.Keys("Tab", "Tab")
	s.Keys("d")
	screen := s.WaitMatch(regexp.MustCompile(`Drain · (\S+)`))
	node := regexp.MustCompile(`Drain · (\S+)`).FindStringSubmatch(screen)[1]
	s.WaitFor(node + ": evicts ")
	s.Keys("Enter")
	s.WaitFor("kubectl drain " + node)

	t.Cleanup(func() { c.setUnschedulable(t, node, false) })
	c.setUnschedulable(t, node, true)
	before := c.nodeWrites(t, node)
	s.Keys("y")
	screen = s.WaitUntil("the drain dialog saying nothing was sent", func(screen string) bool {
		return strings.Contains(oneLine(screen), "nothing sent: ")
	})
	noCrash(t, screen)
	t.Logf("y after the node was cordoned:\n%s", screen)
	if want := "node " + node + " was cordoned"; !strings.Contains(oneLine(screen), want) {
		t.Errorf("the dialog does not say %q:\n%s", want, screen)
	}
	if !strings.Contains(screen, "Drain · "+node) {
		t.Errorf("the dialog closed instead of showing the fresh preview:\n%s", screen)
	}
	if after := c.nodeWrites(t, node); after != before {
		t.Errorf("node %s changed after y although nothing was to be sent:\nbefore %s\nafter  %s", node, before, after)
	}
	s.Keys("Escape")
	s.WaitUntil("the dialog closed", func(screen string) bool { return !strings.Contains(screen, "Drain · ") })
	if after := c.nodeWrites(t, node); after != before {
		t.Errorf("node %s changed after the dialog closed:\nbefore %s\nafter  %s", node, before, after)
	}
}

// setUnschedulable cordons or uncordons node with the patch kubectl cordon
// and uncordon send.
func (c *cluster) setUnschedulable(t *testing.T, node string, on bool) {
	t.Helper()
	body := fmt.Sprintf(`{"spec":{"unschedulable":%v}}`, on)
	if _, err := c.Admin.CoreV1().Nodes().Patch(context.Background(), node, types.StrategicMergePatchType, []byte(body), metav1.PatchOptions{}); err != nil {
		t.Fatalf("patching node %s with %s: %v", node, body, err)
	}
}

// nodeWrites is what a cordon, drain or roll of node would change: its
// spec, its rollscope annotations and the pods bound to it. Its status,
// which the hollow kubelet writes all the time, is left out.
func (c *cluster) nodeWrites(t *testing.T, node string) string {
	t.Helper()
	n, err := c.Admin.CoreV1().Nodes().Get(t.Context(), node, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading node %s: %v", node, err)
	}
	spec, err := json.Marshal(n.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var ours []string
	for k, v := range n.Annotations {
		if strings.HasPrefix(k, model.Prefix) {
			ours = append(ours, k+"="+v)
		}
	}
	sort.Strings(ours)
	pods, err := c.Admin.CoreV1().Pods("").List(t.Context(), metav1.ListOptions{FieldSelector: "spec.nodeName=" + node})
	if err != nil {
		t.Fatalf("listing the pods of node %s: %v", node, err)
	}
	var names []string
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil && p.Namespace == "drain-recheck" {
			names = append(names, p.Name)
		}
	}
	sort.Strings(names)
	return fmt.Sprintf("spec %s annotations %v pods of drain-recheck %v", spec, ours, names)
}

// oneLine is the screen with its line breaks and runs of spaces made one
// space, so that a wrapped sentence reads whole.
func oneLine(screen string) string { return strings.Join(strings.Fields(screen), " ") }
