package noderoll

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model"
)

// The groups of the cases, all on one control plane. Pods are pinned to
// their case's group; the roll's validation still checks every node and
// every Deployment of the cluster, as kops does.
var (
	budgetGroup  = hollowGroup("budget", nodegroup.RoleNode, 3, 3)
	aloneGroup   = hollowGroup("alone", nodegroup.RoleNode, 4, 10)
	twentyGroup  = hollowGroup("twenty", nodegroup.RoleNode, 20, 10)
	mastersGroup = hollowGroup("masters", nodegroup.RoleControlPlane, 3, 10)
	resumeGroup  = hollowGroup("resume", nodegroup.RoleNode, 3, 3)
	stuckGroup   = hollowGroup("stuck", nodegroup.RoleNode, 2, 10)
	vanishGroup  = hollowGroup("vanish", nodegroup.RoleNode, 2, 2)
)

// TestNodeRollsOnARealControlPlane runs issue 6's cases one after the other
// on one control plane: each case rolls its own group.
func TestNodeRollsOnARealControlPlane(t *testing.T) {
	c := startCluster(t, []nodegroup.Group{budgetGroup, aloneGroup, twentyGroup, mastersGroup, resumeGroup, stuckGroup, vanishGroup, pauseGroup})
	t.Run("budget makes the drain wait, then it proceeds", c.budgetWaits)
	t.Run("first node alone", c.firstNodeAlone)
	t.Run("twenty nodes, maxSurge 2, maxUnavailable 10%", c.twentyNodes)
	t.Run("masters never surge", c.mastersNeverSurge)
	t.Run("killed mid-node, resumed from the annotations", c.killAndResume)
	t.Run("roll goes on when someone else deletes the node it drains", c.nodeDeletedMidRoll)
	// Before the drain that times out, which leaves a Deployment short
	// while its namespace goes: the paused roll resumes on a whole cluster.
	t.Run("paused while the cluster fails validation, then resumed", c.pausedWhileFailing)
	t.Run("drain that times out, and a node deleted mid-drain", c.drainTimesOutAndNodeGoes)
}

// Six pods on three nodes of three slots, minAvailable 5: whenever a node
// with two or more pods is drained, its second eviction is refused (429)
// until the first pod's replacement is Ready, and the drain retries every
// 5 s. Some node must hold two: six pods do not fit on three nodes one each.
func (c *cluster) budgetWaits(t *testing.T) {
	w := workload{namespace: "budget", group: budgetGroup.Name, replicas: 6, minimum: 5}
	w.create(t, c.Admin)
	o := observe(t, c.Admin, w.group, w.namespace, int(w.minimum))
	startRoller(t, c.Admin)
	roll(t, c.Admin, w.group, noderoll.Options{})
	waitRolled(t, c.Admin, budgetGroup)
	waitAvailable(t, c, w)

	s := o.snapshot()
	if len(s.blocked) == 0 {
		t.Fatal("no drain ever waited on the PodDisruptionBudget; six pods on three nodes must make one wait")
	}
	// The healthy count is the budget's status read just after the 429: the
	// disruption controller may not have counted the evicted pod out yet.
	for _, want := range []string{"PodDisruptionBudget budget/web allows 0 disruptions (", " healthy, 5 needed)"} {
		if !strings.Contains(s.blocked[0], want) {
			t.Errorf("blocked annotation %q, want it to name the budget and what it allows: %q", s.blocked[0], want)
		}
	}
	if want := []string{"budget-0", "budget-1", "budget-2"}; !sameNames(s.deleted, want) {
		t.Errorf("deleted %v, want the three old nodes %v", s.deleted, want)
	}
	if s.maxDraining != 1 {
		t.Errorf("%d nodes drained at once, want 1 (maxUnavailable defaults to 1)", s.maxDraining)
	}
	o.requireNoViolations(t)
}

func (c *cluster) firstNodeAlone(t *testing.T) {
	w := workload{namespace: "alone", group: aloneGroup.Name, replicas: 2}
	w.create(t, c.Admin)
	o := observe(t, c.Admin, w.group, w.namespace, 0)
	startRoller(t, c.Admin)
	two := intstr.FromInt32(2)
	roll(t, c.Admin, w.group, noderoll.Options{MaxUnavailable: &two})
	waitRolled(t, c.Admin, aloneGroup)

	s := o.snapshot()
	if s.maxDrainingBeforeDelete != 1 {
		t.Errorf("%d nodes drained before the first was replaced, want 1: kops takes the first node alone while none is up to date", s.maxDrainingBeforeDelete)
	}
	if s.maxDraining != 2 {
		t.Errorf("at most %d nodes drained at once, want maxUnavailable 2 after the first", s.maxDraining)
	}
	if s.maxTaintedBeforeDelete != 4 {
		t.Errorf("%d nodes tainted %s before the first replacement, want all 4", s.maxTaintedBeforeDelete, noderoll.TaintScheduledForUpdate.Key)
	}
	if len(s.detachedAt) != 0 || len(s.deleted) != 4 {
		t.Errorf("detached %v, deleted %v; want no surge and the 4 old nodes deleted", s.detachedAt, s.deleted)
	}
}

// maxSurge 2 and maxUnavailable 10% of 20 (2): two nodes detached for a
// surge, four drained at once, and with no node up to date at the start,
// kops' toe-dip: one detached first, its replacement Ready and validated,
// then the second.
func (c *cluster) twentyNodes(t *testing.T) {
	w := workload{namespace: "twenty", group: twentyGroup.Name, replicas: 4, minimum: 3}
	w.create(t, c.Admin)
	o := observe(t, c.Admin, w.group, w.namespace, int(w.minimum))
	startRoller(t, c.Admin)
	surge, unavailable := intstr.FromInt32(2), intstr.FromString("10%")
	roll(t, c.Admin, w.group, noderoll.Options{MaxSurge: &surge, MaxUnavailable: &unavailable})
	waitRolled(t, c.Admin, twentyGroup)

	s := o.snapshot()
	if s.maxDetached != 2 || len(s.detachedAt) != 2 {
		t.Errorf("detached at most %d at once, %d in all; want maxSurge 2, never more", s.maxDetached, len(s.detachedAt))
	}
	if s.maxDraining != 4 {
		t.Errorf("at most %d nodes drained at once, want maxSurge 2 + maxUnavailable 10%% of 20 = 4", s.maxDraining)
	}
	var at []int
	for _, e := range s.detachedAt {
		at = append(at, e)
	}
	sort.Ints(at)
	if len(at) != 2 || s.freshReadyAt == 0 || at[0] >= s.freshReadyAt || at[1] <= s.freshReadyAt {
		t.Errorf("detached at node events %v, first up-to-date node Ready at event %d; want one detach before it and the other after", at, s.freshReadyAt)
	}
	if len(s.deleted) != 20 {
		t.Fatalf("deleted %d nodes, want the 20 old ones: %v", len(s.deleted), s.deleted)
	}
	// Detached nodes are drained last (their drains may still end first).
	if len(s.drainStarted) != 20 {
		t.Fatalf("drains started on %d nodes, want 20: %v", len(s.drainStarted), s.drainStarted)
	}
	for _, n := range s.drainStarted[18:] {
		if _, ok := s.detachedAt[n]; !ok {
			t.Errorf("last drains started %v, want the detached nodes %v last", s.drainStarted[18:], s.detachedAt)
			break
		}
	}
	o.requireNoViolations(t)
}

func (c *cluster) mastersNeverSurge(t *testing.T) {
	o := observe(t, c.Admin, mastersGroup.Name, "masters", 0)
	startRoller(t, c.Admin)
	surge, unavailable := intstr.FromInt32(2), intstr.FromInt32(1)
	roll(t, c.Admin, mastersGroup.Name, noderoll.Options{MaxSurge: &surge, MaxUnavailable: &unavailable})
	waitRolled(t, c.Admin, mastersGroup)

	s := o.snapshot()
	if len(s.detachedAt) != 0 {
		t.Errorf("control-plane nodes detached: %v; maxSurge is ignored for masters", s.detachedAt)
	}
	if s.maxDraining != 1 {
		t.Errorf("%d control-plane nodes drained at once, want maxUnavailable 1", s.maxDraining)
	}
	if len(s.deleted) != 3 {
		t.Errorf("deleted %v, want the 3 old control-plane nodes", s.deleted)
	}
}

// The controllers are killed while a node is draining and started again
// with nothing in memory: the roll finishes from what is on the nodes.
func (c *cluster) killAndResume(t *testing.T) {
	w := workload{namespace: "resume", group: resumeGroup.Name, replicas: 6, minimum: 5}
	w.create(t, c.Admin)
	o := observe(t, c.Admin, w.group, w.namespace, int(w.minimum))
	first := startRoller(t, c.Admin)
	roll(t, c.Admin, w.group, noderoll.Options{})

	mid := waitMidDrain(t, c, w.group)
	first.kill()

	n, err := c.Admin.CoreV1().Nodes().Get(t.Context(), mid, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("node %s, mid-drain at the kill: %v", mid, err)
	}
	if n.Annotations[model.RollStateAnnotation] != model.RollRunning || n.Annotations[model.RollNodeAnnotation] != model.RollStepDraining || n.Annotations[model.DrainRequestAnnotation] == "" {
		t.Fatalf("after the kill node %s has roll state %q, step %q, drain request %q: the progress must be on the node",
			mid, n.Annotations[model.RollStateAnnotation], n.Annotations[model.RollNodeAnnotation], n.Annotations[model.DrainRequestAnnotation])
	}

	startRoller(t, c.Admin)
	waitRolled(t, c.Admin, resumeGroup)
	waitAvailable(t, c, w)
	s := o.snapshot()
	if !slices.Contains(s.deleted, mid) {
		t.Errorf("node %s, draining at the kill, was never replaced: deleted %v", mid, s.deleted)
	}
	if len(s.deleted) != 3 || s.maxDraining != 1 {
		t.Errorf("deleted %v, at most %d draining at once; want the 3 old nodes, one at a time across the restart", s.deleted, s.maxDraining)
	}
	o.requireNoViolations(t)
}

// An autoscaler or a spot termination deletes the node the roll is
// draining: the roll says so, counts it as replaced, and starts the next
// node only once the group has validated again (its replacement Ready).
func (c *cluster) nodeDeletedMidRoll(t *testing.T) {
	// Three slow-to-exit pods on two nodes of two slots: both nodes hold
	// one at least, and each drain lasts the 5 s the evicted pods take.
	w := workload{namespace: "vanish", group: vanishGroup.Name, replicas: 3, slow: true}
	w.create(t, c.Admin)
	o := observe(t, c.Admin, w.group, w.namespace, 0)
	startRoller(t, c.Admin)
	roll(t, c.Admin, w.group, noderoll.Options{})
	mid := waitMidDrain(t, c, w.group)
	if err := c.Admin.CoreV1().Nodes().Delete(t.Context(), mid, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting node %s mid-drain: %v", mid, err)
	}
	waitRolled(t, c.Admin, vanishGroup)

	s := o.snapshot()
	want := fmt.Sprintf("node %s was deleted while it drained, not by this roll; the roll validates the cluster before the next node", mid)
	if !slices.Contains(s.rollMessages, want) {
		t.Errorf("roll messages %q, want %q", s.rollMessages, want)
	}
	if len(s.drainStarted) != 2 || s.drainStarted[0] != mid {
		t.Fatalf("drains started %v, want %s and then the other old node", s.drainStarted, mid)
	}
	if next := s.drainStarted[1]; s.readyAtStart[next] != vanishGroup.Size {
		t.Errorf("%s started draining with %d of the group's nodes Ready, want %d: the replacement of %s first",
			next, s.readyAtStart[next], vanishGroup.Size, mid)
	}
}

// waitMidDrain waits for a node of the group's roll to be draining with pods
// still on it, and names it.
func waitMidDrain(t *testing.T, c *cluster, group string) string {
	t.Helper()
	var mid string
	poll(t, "a node of the roll mid-drain, pods still on it", func(ctx context.Context) (bool, string, error) {
		nodes, err := groupNodes(ctx, c.Admin, group)
		if err != nil {
			return false, "", err
		}
		var states []string
		for _, n := range nodes {
			st := n.Annotations[model.DrainStateAnnotation]
			states = append(states, fmt.Sprintf("%s=%s/%s", n.Name, n.Annotations[model.RollNodeAnnotation], st))
			if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining && (st == model.DrainDraining || st == model.DrainBlocked) &&
				n.Annotations[model.DrainPodsLeftAnnotation] != "" && n.Annotations[model.DrainPodsLeftAnnotation] != "0" {
				mid = n.Name
				return true, "", nil
			}
		}
		return false, strings.Join(states, " "), nil
	})
	return mid
}

// waitAvailable waits for every pod of w to be available again: the roll
// ends when its last node is gone, before that node's pods are back.
func waitAvailable(t *testing.T, c *cluster, w workload) {
	t.Helper()
	poll(t, fmt.Sprintf("%s/web back at %d available", w.namespace, w.replicas), func(ctx context.Context) (bool, string, error) {
		got := w.available(t, c.Admin)
		return got == w.replicas, fmt.Sprintf("%d available", got), nil
	})
}

func sameNames(got, want []string) bool {
	g := append([]string(nil), got...)
	sort.Strings(g)
	return slices.Equal(g, want)
}
