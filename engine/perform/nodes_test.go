package perform_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/nodegroup"
	"rollscope/engine/perform"
	"rollscope/model"
	"rollscope/model/action"
)

func groupNode(name string, ann map[string]string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{model.NodeGroupLabel: "pool"},
		Annotations: ann}}
}

func replicatedPod(name, node string) *corev1.Pod {
	yes := true
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", Labels: map[string]string{"app": "web"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "rs", Controller: &yes}}},
		Spec:   corev1.PodSpec{NodeName: node},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
}

func node(t *testing.T, c kubernetes.Interface, name string) *corev1.Node {
	t.Helper()
	n, err := c.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The preview reads the node's own pods from the API, with the budget that
// covers them and what it allows now; an unreplicated pod is refused.
func TestPreviewDrainReadsTheNodesPodsAndBudgets(t *testing.T) {
	three := intstr.FromInt32(3)
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &three, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 1, CurrentHealthy: 4, DesiredHealthy: 3},
	}
	bare := replicatedPod("bare", "pool-a")
	bare.OwnerReferences, bare.Labels = nil, nil
	c := fake.NewClientset(groupNode("pool-a", nil), groupNode("pool-b", nil), pdb, bare,
		replicatedPod("web-a1", "pool-a"), replicatedPod("web-a2", "pool-a"), replicatedPod("web-b1", "pool-b"))
	p := perform.New(perform.Config{Client: c})
	got, err := p.PreviewDrain(context.Background(), "pool-a", action.DrainOptions{IgnoreDaemonSets: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Evict, ",") != "shop/web-a1,shop/web-a2" {
		t.Errorf("evicts %v, want the two replicated pods of pool-a only", got.Evict)
	}
	if len(got.Budgets) != 1 || !strings.Contains(got.Budgets[0], "PodDisruptionBudget shop/web allows 1 disruptions (4 healthy, 3 needed)") {
		t.Errorf("budgets %v", got.Budgets)
	}
	if len(got.Blocked) != 1 || !strings.HasPrefix(got.Blocked[0], "shop/web-a2: ") {
		t.Errorf("blocked %v: the budget allows one disruption, so the second pod waits", got.Blocked)
	}
	if len(got.Refusals) != 1 || !strings.Contains(got.Refusals[0].Message, "declare no controller") || got.Refusals[0].Pods[0] != "shop/bare" {
		t.Errorf("refusals %+v: want the unreplicated pod", got.Refusals)
	}
	if got.Cordoned || got.State != "" {
		t.Errorf("pool-a reads cordoned %v, drain %q; it is neither", got.Cordoned, got.State)
	}
	// What a confirmation checks again before it sends: the node's cordon
	// and drain state as the API has them now.
	n, err := c.CoreV1().Nodes().Get(context.Background(), "pool-a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n.Spec.Unschedulable = true
	n.Annotations = map[string]string{model.DrainStateAnnotation: model.DrainBlocked}
	if _, err := c.CoreV1().Nodes().Update(context.Background(), n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := p.PreviewDrain(context.Background(), "pool-a", action.DrainOptions{IgnoreDaemonSets: true}); err != nil || !got.Cordoned || got.State != model.DrainBlocked {
		t.Errorf("after cordoning pool-a: cordoned %v, drain %q, %v", got.Cordoned, got.State, err)
	}
	if _, err := p.PreviewDrain(context.Background(), "gone", action.DrainOptions{}); err == nil || !strings.Contains(err.Error(), "no such node") {
		t.Errorf("previewing a node that does not exist: %v", err)
	}
}

func TestPlanRollRefusesWhatTheControllerWouldRefuse(t *testing.T) {
	p := perform.New(perform.Config{})
	if _, err := p.PlanRoll("pool", action.RollSettings{MaxUnavailable: "150%", Size: 4, Outdated: 4}); err == nil ||
		!strings.Contains(err.Error(), "maxUnavailable 150% is outside 0%–100%") {
		t.Errorf("150%%: %v", err)
	}
	zero := action.Request{Action: action.RollGroup, Name: "pool", Roll: action.RollSettings{MaxSurge: "0", MaxUnavailable: "0", Size: 4, Outdated: 4}}
	if err := p.Check(zero); err == nil || !strings.Contains(err.Error(), "no node could ever be replaced") {
		t.Errorf("maxSurge 0 and maxUnavailable 0: %v, want refused: no node could ever be replaced", err)
	}
	plan, err := p.PlanRoll("pool", action.RollSettings{MaxSurge: "2", MaxUnavailable: "10%", Size: 20, Outdated: 20})
	if err != nil || !strings.Contains(plan, "20 outdated nodes, 4 at a time, 2 of them surged first") {
		t.Errorf("plan %q, %v: maxSurge 2 and maxUnavailable 10%% of 20 (2) roll 4 at a time", plan, err)
	}
	if plan, _ := p.PlanRoll("pool", action.RollSettings{Step: true, Outdated: 3}); !strings.HasPrefix(plan, "3 outdated nodes, one at a time") {
		t.Errorf("stepped roll with the group's settings: %q", plan)
	}
}

// Requests on several nodes go one node at a time: when one fails, the
// error says which nodes were done and which were not sent.
func TestCordonSeveralNodesSaysWhatWasDone(t *testing.T) {
	c, _ := memCluster(t, groupNode("node-0", nil), groupNode("node-3", nil))
	p := perform.New(perform.Config{Client: c})
	_, err := p.Send(context.Background(), action.Request{Action: action.Cordon, Nodes: []string{"node-0", "node-2", "node-3"}})
	if err == nil || !strings.Contains(err.Error(), `"node-2"`) || !strings.HasSuffix(err.Error(), " — done for node-0; not sent for node-3") {
		t.Fatalf("error %v, want node-2's failure, done for node-0, not sent for node-3", err)
	}
	if !node(t, c, "node-0").Spec.Unschedulable || node(t, c, "node-3").Spec.Unschedulable {
		t.Error("want node-0 cordoned and node-3 untouched")
	}
	if _, err := p.Send(context.Background(), action.Request{Action: action.Uncordon}); err == nil || !strings.Contains(err.Error(), "names no node") {
		t.Errorf("uncordon of no node: %v", err)
	}
}

// Each node request says what it did in the console's words, and a roll
// deletes drained nodes exactly when the console was told to.
func TestNodeRequestsSayWhatHappened(t *testing.T) {
	outdated := func() map[string]string { return map[string]string{model.NeedsUpdateAnnotation: ""} }
	c, clock := memCluster(t, groupNode("pool-a", outdated()), groupNode("pool-b", outdated()))
	p := perform.New(perform.Config{Client: c, Now: clock.Now, DeleteNodes: true})
	ctx := context.Background()
	for _, step := range []struct {
		r    action.Request
		want string
	}{
		{action.Request{Action: action.Drain, Nodes: []string{"pool-a"}, Drain: action.DrainOptions{IgnoreDaemonSets: true, Timeout: time.Minute}},
			"requested — the Nodes pane shows its progress"},
		{action.Request{Action: action.RollGroup, Name: "pool", Roll: action.RollSettings{MaxSurge: "1", Step: true, Size: 2, Outdated: 2}}, "requested"},
		{action.Request{Action: action.PauseRoll, Name: "pool"}, "ok"},
		{action.Request{Action: action.PauseRoll, Name: "pool", ResumeRoll: true}, "ok"},
		{action.Request{Action: action.StopRoll, Name: "pool"}, "stopped; drained nodes stay cordoned"},
		// n on the stopped roll starts it again with its settings.
		{action.Request{Action: action.NextStep, Name: "pool"}, "ok"},
	} {
		got, err := p.Send(ctx, step.r)
		if err != nil || got != step.want {
			t.Fatalf("%s: %q, %v; want %q", step.r.Summary(), got, err, step.want)
		}
	}
	a := node(t, c, "pool-a")
	if req := a.Annotations[model.DrainRequestAnnotation]; !strings.Contains(req, `"ignoreDaemonSets":true`) || !strings.Contains(req, `"timeout":"1m0s"`) {
		t.Errorf("drain request %s, want the dialog's options", req)
	}
	roll := a.Annotations[model.RollAnnotation]
	if a.Annotations[model.RollStateAnnotation] != model.RollRunning || !strings.Contains(roll, `"deleteNodes":true`) || !strings.Contains(roll, `"step":true`) {
		t.Errorf("roll %s in state %q; want it running again with its settings, deleting nodes", roll, a.Annotations[model.RollStateAnnotation])
	}
}

// A roll whose dialog leaves surge and unavailability blank takes the
// group's own, as the node-roll controller does: the plan says the group's
// maxSurge of 1 surges a node, instead of kops' "no surge".
func TestPlanRollTakesTheGroupsOwnSettings(t *testing.T) {
	one, zero := intstr.FromInt32(1), intstr.FromInt32(0)
	p := perform.New(perform.Config{Groups: []nodegroup.Group{{Name: "nodes", MaxSurge: &one, MaxUnavailable: &zero}}})
	got, err := p.PlanRoll("nodes", action.RollSettings{Size: 4, Outdated: 4})
	if err != nil || !strings.HasPrefix(got, "4 outdated nodes, 1 at a time, 1 of them surged first (maxSurge the group's 1") {
		t.Errorf("plan %q, %v", got, err)
	}
	got, err = perform.New(perform.Config{}).PlanRoll("nodes", action.RollSettings{Size: 4, Outdated: 4})
	if err != nil || !strings.Contains(got, "none surged") {
		t.Errorf("plan without group settings %q, %v", got, err)
	}
}
