package main

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model"
	"rollscope/model/action"
)

func groupNode(name string, ann map[string]string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{nodegroup.LabelGroup: "pool"},
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

// The preview reads the node's own pods from the API, with the budget that
// covers them and what it allows now; an unreplicated pod is refused.
func TestPreviewDrainReadsTheNodesPodsAndBudgets(t *testing.T) {
	one := intstr.FromInt32(3)
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 1, CurrentHealthy: 4, DesiredHealthy: 3},
	}
	bare := replicatedPod("bare", "pool-a")
	bare.OwnerReferences, bare.Labels = nil, nil
	c := fake.NewClientset(groupNode("pool-a", nil), groupNode("pool-b", nil), pdb, bare,
		replicatedPod("web-a1", "pool-a"), replicatedPod("web-a2", "pool-a"), replicatedPod("web-b1", "pool-b"))
	a := &nodeActions{client: c, now: time.Now}
	p, err := a.PreviewDrain(context.Background(), "pool-a", action.DrainOptions{IgnoreDaemonSets: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.Evict, ",") != "shop/web-a1,shop/web-a2" {
		t.Errorf("evicts %v, want the two replicated pods of pool-a only", p.Evict)
	}
	if len(p.Budgets) != 1 || !strings.Contains(p.Budgets[0], "PodDisruptionBudget shop/web allows 1 disruptions (4 healthy, 3 needed)") {
		t.Errorf("budgets %v", p.Budgets)
	}
	if len(p.Blocked) != 1 || !strings.HasPrefix(p.Blocked[0], "shop/web-a2: ") {
		t.Errorf("blocked %v: the budget allows one disruption, so the second pod waits", p.Blocked)
	}
	if len(p.Refusals) != 1 || !strings.Contains(p.Refusals[0].Message, "declare no controller") || p.Refusals[0].Pods[0] != "shop/bare" {
		t.Errorf("refusals %+v: want the unreplicated pod", p.Refusals)
	}
	if _, err := a.PreviewDrain(context.Background(), "gone", action.DrainOptions{}); err == nil || !strings.Contains(err.Error(), "no such node") {
		t.Errorf("previewing a node that does not exist: %v", err)
	}
}

func TestCheckRollRefusesWhatTheControllerWouldRefuse(t *testing.T) {
	a := &nodeActions{now: time.Now}
	if _, err := a.PlanRoll("pool", action.RollSettings{MaxUnavailable: "150%", Size: 4, Outdated: 4}); err == nil ||
		!strings.Contains(err.Error(), "maxUnavailable 150% is outside 0%–100%") {
		t.Errorf("150%%: %v", err)
	}
	if _, err := a.PlanRoll("pool", action.RollSettings{MaxSurge: "0", MaxUnavailable: "0", Size: 4, Outdated: 4}); err == nil {
		t.Error("maxSurge 0 and maxUnavailable 0 accepted: no node could ever be replaced")
	}
	plan, err := a.PlanRoll("pool", action.RollSettings{MaxSurge: "2", MaxUnavailable: "10%", Size: 20, Outdated: 20})
	if err != nil || !strings.Contains(plan, "20 outdated nodes, 4 at a time, 2 of them surged first") {
		t.Errorf("plan %q, %v: maxSurge 2 and maxUnavailable 10%% of 20 (2) roll 4 at a time", plan, err)
	}
}

// n on a stopped roll requests it again on the outdated nodes left, with
// the settings it was started with.
func TestContinueTakesAStoppedRollUpAgainWithItsSettings(t *testing.T) {
	spec := `{"maxUnavailable":"50%","step":true,"deleteNodes":true,"id":"r1","group":"pool","role":"Node","size":2,"count":2}`
	outdated := map[string]string{model.NeedsUpdateAnnotation: "", noderoll.AnnotationRoll: spec, noderoll.AnnotationState: noderoll.StateStopped}
	c := fake.NewClientset(groupNode("pool-a", outdated), groupNode("pool-b", map[string]string{}))
	a := &nodeActions{client: c, now: func() time.Time { return time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) }}
	if _, err := a.send(context.Background(), action.Request{Action: action.NextStep, Name: "pool"}); err != nil {
		t.Fatal(err)
	}
	n, err := c.CoreV1().Nodes().Get(context.Background(), "pool-a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := n.Annotations[noderoll.AnnotationRoll]
	if n.Annotations[noderoll.AnnotationState] != noderoll.StateRunning || !strings.Contains(got, `"maxUnavailable":"50%"`) ||
		!strings.Contains(got, `"step":true`) || !strings.Contains(got, `"deleteNodes":true`) || strings.Contains(got, `"id":"r1"`) {
		t.Errorf("after n: state %q, roll %s; want a new running roll with the stopped one's settings",
			n.Annotations[noderoll.AnnotationState], got)
	}
}

// Cordoning several nodes goes one at a time: when one fails, the error says
// which were done and which were not sent, and the rest are left alone.
func TestCordonOfSeveralNodesSaysWhatWasDone(t *testing.T) {
	c := fake.NewClientset(groupNode("pool-a", nil), groupNode("pool-c", nil))
	a := &nodeActions{client: c, now: time.Now}
	_, err := a.send(context.Background(), action.Request{Action: action.Cordon, Nodes: []string{"pool-a", "gone", "pool-c"}})
	if err == nil || !strings.Contains(err.Error(), "done for pool-a; not sent for pool-c") {
		t.Fatalf("error %v, want one naming what was done and what was not sent", err)
	}
	for name, want := range map[string]bool{"pool-a": true, "pool-c": false} {
		n, err := c.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
		if err != nil || n.Spec.Unschedulable != want {
			t.Errorf("%s: unschedulable %v (%v), want %v", name, n.Spec.Unschedulable, err, want)
		}
	}
}
