package nodesconsole

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/internal/tmuxtest"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait; it asserts nothing about speed.
const patience = 2 * time.Minute

const (
	group     = "hollow"
	groupSize = 4
	namespace = "shop"
)

// hollowNodes are the group's machines: four nodes on spec v1 while the
// group asks for v2, so every one is outdated; a deleted node is replaced
// within a second, as an autoscaling group would.
func hollowNodes() live.Nodes {
	return live.Nodes{
		Groups: []nodegroup.Group{{
			Name: group, Size: groupSize, InitialSpec: "v1", Spec: "v2",
			BootTime: 500 * time.Millisecond, LaunchDelay: 300 * time.Millisecond,
			Capacity: e2etest.Capacity("30", "4", "8Gi"),
		}},
		Images: []kubelet.ImageRule{{Match: "*", Pull: 100 * time.Millisecond, Start: 100 * time.Millisecond,
			Ready: 500 * time.Millisecond, Stop: 200 * time.Millisecond}},
		OnError: e2etest.IgnoreErrors,
	}
}

// A stepped roll with --delete-nodes: three nodes with D and n, x, the
// console killed and started again, which shows the stopped roll from the
// nodes' annotations; n takes it up again and the roll finishes, every node
// replaced and the budget never broken.
func TestSteppedRollSurvivesAConsoleRestart(t *testing.T) {
	c := e2etest.Start(t, e2etest.Setup{Patience: patience, Rollscope: true, Nodes: hollowNodes()})
	bin, cp, admin := c.Bin, c.CP, c.Admin
	t.Cleanup(func() { logNodesOnFailure(t, admin) })
	waitFor(t, "the group's nodes Ready and the workload available", func(ctx context.Context) (bool, string, error) {
		return settled(ctx, admin, "v1")
	})
	createWorkload(t, admin)
	waitFor(t, "the workload available", func(ctx context.Context) (bool, string, error) {
		return settled(ctx, admin, "v1")
	})

	viewerIsRefused(t, bin, cp.ViewerKubeconfig)

	argv := []string{bin, "--kubeconfig", cp.AdminKubeconfig, "-n", namespace, "--delete-nodes", "--step", "deploy/web"}
	s := console(t, argv)
	s.Keys("Tab", "Tab")
	s.WaitFor(group + "-0")
	drainAndUncordon(t, s, admin)
	s.Keys("D")
	s.WaitFor(fmt.Sprintf("Roll node group %s · %d of %d nodes outdated", group, groupSize, groupSize))
	// A short interval keeps the test short; --step has the toggle on.
	s.Keys("Down", "Down", "C-u", "3s", "Enter")
	s.WaitFor("delete the Node object (--delete-nodes)")
	s.Keys("y")
	s.WaitFor("roll group " + group + ": requested")

	for want := 1; want <= 3; want++ {
		waitReplaced(s, want)
		if want < 3 {
			s.Keys("n")
		}
	}
	s.Keys("x")
	s.WaitFor("Stop the roll · group " + group)
	s.Keys("y")
	s.WaitFor("roll " + group + ": stopped")

	// Killed, not quit: what a crash or a lost terminal does.
	s.Kill()
	s = console(t, argv)
	screen := s.WaitFor("roll " + group + ": stopped")
	if !regexp.MustCompile(`3/4 replaced.*n resumes it`).MatchString(screen) {
		t.Errorf("the restarted console does not show how far the stopped roll got and how to go on:\n%s", screen)
	}
	s.Keys("n")
	s.WaitFor("resume the stopped roll of group " + group)
	waitFor(t, "every node of the group replaced by one on spec v2", func(ctx context.Context) (bool, string, error) {
		return settled(ctx, admin, "v2")
	})
	s.WaitUntil("the roll line gone", func(screen string) bool {
		return !regexp.MustCompile(`roll ` + group + `: `).MatchString(screen)
	})
	pdb, err := admin.PolicyV1().PodDisruptionBudgets(namespace).Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pdb.Status.CurrentHealthy < pdb.Status.DesiredHealthy {
		t.Errorf("the budget is broken after the roll: %d healthy, %d needed", pdb.Status.CurrentHealthy, pdb.Status.DesiredHealthy)
	}
	s.Keys("q")
	s.WaitFor("rollscope exited 0")
}

// viewerIsRefused checks that a view-only user gets the node keys disabled
// with the permission missing (SelfSubjectAccessReview), before typing
// anything into a dialog.
func viewerIsRefused(t *testing.T, bin, kubeconfig string) {
	s := console(t, []string{bin, "--kubeconfig", kubeconfig, "-n", namespace, "deploy/web"})
	s.Keys("Tab", "Tab")
	s.WaitFor(group + "-0")
	// Each refusal is a toast until the next key; no Escape between them,
	// which the terminal would read with the next key as alt+key.
	for _, k := range []string{"c", "d", "D"} {
		s.Keys(k)
		s.WaitFor("not allowed: you may not update nodes cluster-wide")
		s.Keys("j")
		s.WaitUntil("the toast gone", func(screen string) bool { return !strings.Contains(screen, "not allowed") })
	}
	s.Keys("q")
	s.WaitFor("rollscope exited 0")
}

// drainAndUncordon drains the first node from the console — the preview
// read from the live API, the evictions made by the console's own drain
// controller — and uncordons it again.
func drainAndUncordon(t *testing.T, s *tmuxtest.Session, c kubernetes.Interface) {
	node := group + "-0"
	s.Keys("d")
	s.WaitFor("Drain · " + node)
	screen := s.WaitFor(node + ": evicts 1 pod")
	if !regexp.MustCompile(`PodDisruptionBudget shop/web allows 1 disruptions \(4 healthy, 3 needed\)`).MatchString(screen) {
		t.Errorf("the drain preview does not show the budget and what it allows:\n%s", screen)
	}
	s.Keys("Enter")
	s.WaitFor("kubectl drain " + node + " --ignore-daemonsets")
	s.Keys("y")
	s.WaitFor("drain " + node + ": requested")
	waitFor(t, node+" drained by the console's controller", func(ctx context.Context) (bool, string, error) {
		pods, err := c.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=" + node})
		if err != nil {
			return false, "", err
		}
		n, err := c.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		state := n.Annotations[model.DrainStateAnnotation]
		return state == "drained" && len(pods.Items) == 0 && n.Spec.Unschedulable,
			fmt.Sprintf("drain %q, %d pods left, unschedulable %v", state, len(pods.Items), n.Spec.Unschedulable), nil
	})
	s.WaitUntil(node+" drained and cordoned in the pane", func(screen string) bool {
		// The GROUP column is the first a narrower pane gives up.
		return regexp.MustCompile(node + `\s+(` + group + `\s+)?Ready\s+cordoned\s+0\s+outdated\s+drained`).MatchString(screen)
	})
	s.Keys("C")
	s.WaitFor("kubectl uncordon " + node)
	s.Keys("y")
	s.WaitFor("uncordon " + node + ": ok")
	waitFor(t, "the workload available again, every node schedulable", func(ctx context.Context) (bool, string, error) {
		return settled(ctx, c, "v1")
	})
}

// logNodesOnFailure shows what the roll left on the nodes when the test
// failed: the annotations are the roll's whole state.
func logNodesOnFailure(t *testing.T, c kubernetes.Interface) {
	if !t.Failed() {
		return
	}
	nodes, err := c.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Logf("listing the nodes: %v", err)
		return
	}
	for _, n := range nodes.Items {
		t.Logf("node %s unschedulable=%v taints=%v annotations=%v", n.Name, n.Spec.Unschedulable, n.Spec.Taints, n.Annotations)
	}
}

// waitReplaced waits until the roll waits for n with want nodes replaced.
func waitReplaced(s *tmuxtest.Session, want int) {
	re := regexp.MustCompile(`roll ` + group + `: waiting · stepped · (\d)/4 replaced`)
	s.WaitUntil(fmt.Sprintf("the roll waiting with %d/4 replaced", want), func(screen string) bool {
		m := re.FindStringSubmatch(screen)
		return m != nil && m[1] == strconv.Itoa(want)
	})
}

func console(t *testing.T, argv []string) *tmuxtest.Session {
	s := tmuxtest.Start(t, 160, 45, argv...)
	s.Timeout = patience
	s.WaitFor("deploy web")
	return s
}

// createWorkload is four pods behind a budget that lets one go at a time:
// every drain waits on it.
func createWorkload(t *testing.T, c kubernetes.Interface) {
	ctx := t.Context()
	e2etest.Namespace(t, c, namespace, patience)
	d := e2etest.Deployment(namespace, "web", 4, "e2e.example/web:1")
	if _, err := c.AppsV1().Deployments(namespace).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	minAvailable := intstr.FromInt32(3)
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: namespace},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &minAvailable, Selector: &metav1.LabelSelector{MatchLabels: d.Spec.Selector.MatchLabels}},
	}
	if _, err := c.PolicyV1().PodDisruptionBudgets(namespace).Create(ctx, pdb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// settled reports whether the group has its size in Ready nodes all on
// spec, none marked for an update, and the workload (when there is one) is
// fully available.
func settled(ctx context.Context, c kubernetes.Interface, spec string) (bool, string, error) {
	nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, "", err
	}
	ready, onSpec := 0, 0
	for _, n := range nodes.Items {
		_, marked := n.Annotations[model.NeedsUpdateAnnotation]
		if n.Annotations[model.NodeSpecAnnotation] == spec && (spec == "v1" || !marked) {
			onSpec++
		}
		for _, cond := range n.Status.Conditions {
			if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue && !n.Spec.Unschedulable {
				ready++
			}
		}
	}
	state := fmt.Sprintf("%d nodes, %d Ready and schedulable, %d on spec %s", len(nodes.Items), ready, onSpec, spec)
	if ready != groupSize || onSpec != groupSize || len(nodes.Items) != groupSize {
		return false, state, nil
	}
	d, err := c.AppsV1().Deployments(namespace).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		// No workload yet: the nodes are all there is to wait for.
		return true, state, nil
	}
	state += fmt.Sprintf(", web %d/%d available", d.Status.AvailableReplicas, *d.Spec.Replicas)
	return d.Status.AvailableReplicas == *d.Spec.Replicas && d.Status.ObservedGeneration >= d.Generation, state, nil
}

// waitFor polls check until it is done, failing with the last state seen.
func waitFor(t *testing.T, what string, check func(ctx context.Context) (bool, string, error)) {
	t.Helper()
	e2etest.Poll(t, patience, what, check)
}
