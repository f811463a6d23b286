package play

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/drain"
	"rollscope/engine/scenario"
	"rollscope/model/action"
)

func TestTargetNamesWhatTheActionAppliesTo(t *testing.T) {
	cases := []struct {
		a    scenario.Action
		want string
	}{
		{scenario.Action{Kind: scenario.ActionPause, Target: scenario.Target{Kind: scenario.TargetDeployment, Name: "web"}}, "deployment/web"},
		{scenario.Action{Kind: scenario.ActionDrain, Node: "nodes-2"}, "node/nodes-2"},
		{scenario.Action{Kind: scenario.ActionRollNodes, Group: "nodes"}, "group/nodes"},
	}
	for _, c := range cases {
		if got := Target(c.a); got != c.want {
			t.Errorf("Target(%s) = %q, want %q", c.a.Kind, got, c.want)
		}
	}
}

func TestOutcomeSaysNothingToDoPlainly(t *testing.T) {
	if got := Outcome(nil); got != "ok" {
		t.Errorf("Outcome(nil) = %q", got)
	}
	err := fmt.Errorf("deployment web is already paused: %w", action.ErrNothingToDo)
	if got := Outcome(err); got != "deployment web is already paused" {
		t.Errorf("Outcome(%v) = %q", err, got)
	}
}

// The player acts in its namespace, on the cluster's names of the
// scenario's nodes, and says why when an action cannot run there.
func TestPlayerActsInItsNamespaceOnMappedNodes(t *testing.T) {
	replicas := int32(2)
	client := fake.NewClientset(
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "run-1"}, Spec: appsv1.DeploymentSpec{Replicas: &replicas}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "sim-x-nodes-1"}},
	)
	p := Player{
		Client: client, Namespace: "run-1", Now: func() time.Time { return time.Unix(0, 0) },
		Node: func(name string) (string, error) { return "sim-x-" + name, nil },
		Group: func(name string) (string, error) {
			return "", fmt.Errorf("group %s: %w", name, ErrNotSupported)
		},
	}
	ctx := context.Background()
	web := scenario.Target{Kind: scenario.TargetDeployment, Name: "web"}

	if target, result := p.Run(ctx, scenario.Action{Kind: scenario.ActionScale, Target: web, Replicas: 5}); target != "deployment/web" || result != "ok" {
		t.Errorf("scale: %s %s", target, result)
	}
	d, err := client.AppsV1().Deployments("run-1").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || *d.Spec.Replicas != 5 {
		t.Errorf("deployment run-1/web after scale: %v, %v", d, err)
	}

	if _, result := p.Run(ctx, scenario.Action{Kind: scenario.ActionDrain, Node: "nodes-1"}); result != "ok" {
		t.Errorf("drain nodes-1: %s", result)
	}
	n, err := client.CoreV1().Nodes().Get(ctx, "sim-x-nodes-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := n.Annotations[drain.AnnotationRequest]; !ok {
		t.Errorf("the drain was not asked of sim-x-nodes-1: %v", n.Annotations)
	}

	err = p.Perform(ctx, scenario.Action{Kind: scenario.ActionRollNodes, Group: "nodes"})
	if !errors.Is(err, ErrNotSupported) {
		t.Errorf("rollNodes where groups cannot be rolled: %v, want ErrNotSupported", err)
	}
}
