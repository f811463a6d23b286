package scenario_test

import (
	"testing"

	"rollscope/engine/scenario"
	"rollscope/model/argo"
)

// A scenario declares an Argo Rollout as an ordinary manifest: it reads
// into rollscope's own type, in the scenario's namespace, its steps kept.
func TestAScenarioDeclaresARollout(t *testing.T) {
	sc, err := scenario.Parse("t.yaml", []byte(`namespace: shop
objects: |
  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  metadata: {name: checkout}
  spec:
    replicas: 10
    selector: {matchLabels: {app: checkout}}
    template:
      metadata: {labels: {app: checkout}}
      spec: {containers: [{name: web, image: "shop/checkout:v1"}]}
    strategy:
      canary:
        maxSurge: 1
        steps: [{setWeight: 20}, {pause: {}}, {setWeight: 50}, {pause: {duration: 10s}}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Objects) != 1 {
		t.Fatalf("objects %v", sc.Objects)
	}
	ro, ok := sc.Objects[0].(*argo.Rollout)
	if !ok {
		t.Fatalf("the Rollout read as %T", sc.Objects[0])
	}
	c := ro.Spec.Strategy.Canary
	if ro.Namespace != "shop" || c == nil || len(c.Steps) != 4 || *c.Steps[2].SetWeight != 50 || c.Steps[3].Pause.Duration.String() != "10s" || c.MaxSurge.IntValue() != 1 {
		t.Errorf("read %+v", ro)
	}
}
