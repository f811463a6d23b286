package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/engine/scenario"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/kind"
)

func TestTargetNamesWhatTheActionAppliesTo(t *testing.T) {
	cases := []struct {
		a    scenario.Action
		want string
	}{
		{scenario.Action{Kind: scenario.ActionPause, Target: scenario.Target{Kind: kind.Deployment, Name: "web"}}, "deployment/web"},
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
	web := scenario.Target{Kind: kind.Deployment, Name: "web"}

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
	if _, ok := n.Annotations[model.DrainRequestAnnotation]; !ok {
		t.Errorf("the drain was not asked of sim-x-nodes-1: %v", n.Annotations)
	}

	err = p.Perform(ctx, scenario.Action{Kind: scenario.ActionRollNodes, Group: "nodes"})
	if !errors.Is(err, ErrNotSupported) {
		t.Errorf("rollNodes where groups cannot be rolled: %v, want ErrNotSupported", err)
	}
}

// A scripted action is the request the console's key sends: setEnv's
// variables one by one in name order (empty removes), a roll with its
// options as the dialog gives them, the node and group names mapped.
func TestRequestsAreWhatTheKeysSend(t *testing.T) {
	p := Player{Namespace: "run-1", Group: func(name string) (string, error) { return "sim-" + name, nil }}
	web := scenario.Target{Kind: kind.Deployment, Name: "web"}
	env, err := p.requests(scenario.Action{Kind: scenario.ActionSetEnv, Target: web, Container: "app", Env: map[string]string{"B": "2", "A": ""}})
	if err != nil || len(env) != 2 || env[0].Env != "A-" || env[1].Env != "B=2" || env[1].Action != action.SetEnv || env[1].Namespace != "run-1" {
		t.Errorf("setEnv requests %+v, %v; want A- then B=2 in run-1", env, err)
	}
	surge, unavail := intstr.FromInt32(2), intstr.FromString("25%")
	roll, err := p.requests(scenario.Action{Kind: scenario.ActionRollNodes, Group: "nodes",
		Roll: noderoll.Options{MaxSurge: &surge, MaxUnavailable: &unavail, Step: true, DrainTimeout: drain.Duration(time.Minute)}})
	want := action.RollSettings{MaxSurge: "2", MaxUnavailable: "25%", Step: true, DrainTimeout: time.Minute}
	if err != nil || len(roll) != 1 || roll[0].Action != action.RollGroup || roll[0].Name != "sim-nodes" || roll[0].Roll != want {
		t.Errorf("rollNodes requests %+v, %v; want a roll of sim-nodes with %+v", roll, err, want)
	}
	rc := scenario.Target{Kind: kind.ReplicationController, Name: "web"}
	update, err := p.requests(scenario.Action{Kind: scenario.ActionSetImage, Target: rc, Container: "nginx", Image: "nginx:1.27"})
	if err != nil || len(update) != 1 || update[0].Action != action.RCUpdate || update[0].RCUpdate.Old != "web" || update[0].RCUpdate.Image != "nginx:1.27" {
		t.Errorf("setImage on an RC: %+v, %v; want a rolling update of web", update, err)
	}
	_, err = p.requests(scenario.Action{Kind: scenario.ActionScale, Target: rc, Line: 12})
	if !errors.Is(err, ErrNotAnUpdate) || !strings.HasPrefix(err.Error(), "line 12: scale on ") {
		t.Errorf("scale on an RC: %v, want ErrNotAnUpdate naming the line", err)
	}
}
