package play

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/scenario"
	"rollscope/model/kind"
)

// An action that names its namespace acts there; a run that keeps every
// object in its own namespace (live) acts in that one.
func TestPlayerActsInTheActionsNamespace(t *testing.T) {
	two := int32(2)
	deploy := func(ns string) *appsv1.Deployment {
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "ledger", Namespace: ns}, Spec: appsv1.DeploymentSpec{Replicas: &two}}
	}
	ctx := context.Background()
	ledger := scenario.Target{Kind: kind.Deployment, Name: "ledger", Namespace: "billing"}
	scale := scenario.Action{Kind: scenario.ActionScale, Target: ledger, Replicas: 7}
	now := func() time.Time { return time.Unix(0, 0) }

	for _, c := range []struct {
		name    string
		one     bool
		movedNS string
	}{{"embedded", false, "billing"}, {"live run", true, "shop"}} {
		t.Run(c.name, func(t *testing.T) {
			client := fake.NewClientset(deploy("shop"), deploy("billing"))
			p := Player{Client: client, Namespace: "shop", OneNamespace: c.one, Now: now}
			if _, result := p.Run(ctx, scale); result != "ok" {
				t.Fatalf("scale: %s", result)
			}
			for _, ns := range []string{"shop", "billing"} {
				d, err := client.AppsV1().Deployments(ns).Get(ctx, "ledger", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if moved := *d.Spec.Replicas == 7; moved != (ns == c.movedNS) {
					t.Errorf("%s/ledger has %d replicas; only %s/ledger should have been scaled", ns, *d.Spec.Replicas, c.movedNS)
				}
			}
		})
	}
}
