package noderoll

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/drain"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
)

var pauseGroup = hollowGroup("pause", nodegroup.RoleNode, 2, 10)

// A roll paused while the cluster fails its validation is the operator's to
// hold: its nodes stop carrying a deadline and it does not fail, however
// long past the timeout it stays paused; resumed once the cluster is whole
// again, it rolls. The cluster fails validation because of a Deployment
// whose pod fits on no node — validation reads every Deployment, as kops'
// does, which is why this case adds it only while it runs.
func (c *cluster) pausedWhileFailing(t *testing.T) {
	const timeout = 4 * time.Second
	ctx := t.Context()
	e2etest.Namespace(t, c.Admin, "pause-hold", patience)
	hold := e2etest.Deployment("pause-hold", "hold", 1, "e2e.example/web:1")
	hold.Spec.Template.Spec.NodeSelector = map[string]string{model.NodeGroupLabel: "no-such-group"}
	if _, err := c.Admin.AppsV1().Deployments("pause-hold").Create(ctx, hold, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment pause-hold/hold: %v", err)
	}
	dropHold := func() {
		_ = c.Admin.CoreV1().Namespaces().Delete(context.Background(), "pause-hold", metav1.DeleteOptions{})
	}
	t.Cleanup(dropHold)

	startRoller(t, c.Admin)
	roll(t, c.Admin, pauseGroup.Name, noderoll.Options{ValidationTimeout: drain.Duration(timeout)})
	poll(t, "a node of the roll carrying its deadline", func(ctx context.Context) (bool, string, error) {
		at, _, said, err := rollDeadline(ctx, c)
		return at != "", said, err
	})
	if err := noderoll.Pause(ctx, c.Admin, pauseGroup.Name); err != nil {
		t.Fatal(err)
	}
	poll(t, "the paused roll's deadline cleared", func(ctx context.Context) (bool, string, error) {
		at, _, said, err := rollDeadline(ctx, c)
		return at == "", said, err
	})
	time.Sleep(2 * timeout) // twice the timeout, paused
	if at, states, said, err := rollDeadline(ctx, c); err != nil || at != "" || len(states) == 0 || slices.ContainsFunc(states, func(s string) bool { return s != model.RollPaused }) {
		t.Fatalf("paused for twice its validation timeout, the roll's nodes say %s(deadline %q, %v); want it paused, with no deadline", said, at, err)
	}
	dropHold()
	// The earlier cases' workloads go with their namespaces, which nothing
	// waited for: resumed, the roll validates at once only when every
	// Deployment of the cluster has its pods.
	poll(t, "every Deployment of the cluster available", func(ctx context.Context) (bool, string, error) {
		ds, err := c.Admin.AppsV1().Deployments("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		for _, d := range ds.Items {
			if want := *d.Spec.Replicas; d.Status.AvailableReplicas < want {
				return false, fmt.Sprintf("deployment %s/%s has %d of %d available", d.Namespace, d.Name, d.Status.AvailableReplicas, want), nil
			}
		}
		return true, "", nil
	})
	if err := noderoll.Resume(ctx, c.Admin, pauseGroup.Name); err != nil {
		t.Fatal(err)
	}
	waitRolled(t, c.Admin, pauseGroup)
}

// rollDeadline is the deadline a node of the pause group carries ("" when
// none does), each node's roll state, and both said for a failure.
func rollDeadline(ctx context.Context, c *cluster) (deadline string, states []string, said string, err error) {
	nodes, err := groupNodes(ctx, c.Admin, pauseGroup.Name)
	if err != nil {
		return "", nil, "", err
	}
	for _, n := range nodes {
		if at := n.Annotations[model.RollFailsAtAnnotation]; at != "" {
			deadline = at
		}
		states = append(states, n.Annotations[model.RollStateAnnotation])
		said += fmt.Sprintf("%s %s %q; ", n.Name, n.Annotations[model.RollStateAnnotation], n.Annotations[model.RollMessageAnnotation])
	}
	return deadline, states, said, nil
}
