package embedded_test

import (
	"context"
	"testing"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/internal/rolloutfixture"
	"rollscope/kube/memapi"
	"rollscope/kube/objects"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// A scenario's Rollout is created in the embedded cluster, which serves it
// as a live cluster with Argo's CRDs does.
func TestAScenariosRolloutIsServed(t *testing.T) {
	sc, err := scenario.Parse("t.yaml", []byte(`namespace: shop
objects: |
`+rolloutfixture.Rollout(3, `{canary: {steps: [{setWeight: 20}, {pause: {}}]}}`)+``))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock})
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	row, _ := objects.For(kind.Rollout)
	w, err := row.Get(context.Background(), c.Client, "shop", "checkout")
	if err != nil {
		t.Fatal(err)
	}
	if ro := w.Object().(*argo.Rollout); len(ro.Spec.Strategy.Canary.Steps) != 2 || ro.Generation != 1 {
		t.Errorf("the embedded cluster holds %+v", ro)
	}
}
