package scenario_test

import (
	"strings"
	"testing"

	"rollscope/engine/scenario"
	"rollscope/internal/rolloutfixture"
	"rollscope/model/argo"
	"rollscope/model/kind"
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

var rolloutObjects = `namespace: shop
objects: |
` + rolloutfixture.Rollout(4, rolloutfixture.Canary) + `  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "shop/web:v1"}]}
`

// Scripted actions take rollout/NAME targets, each read as the verb the
// console's Rollout view sends.
func TestScriptedActionsOnARollout(t *testing.T) {
	sc, err := scenario.Parse("t.yaml", []byte(rolloutObjects+`actions:
  - {at: 10s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}
  - {at: 20s, promote: rollout/checkout}
  - {at: 30s, promote: {target: ro/checkout, full: true}}
  - {at: 40s, abort: rollout/checkout}
  - {at: 50s, retry: rollout/checkout}
  - {at: 60s, pause: rollout/checkout}
  - {at: 70s, resume: rollout/checkout}
  - {at: 80s, restart: rollout/checkout}
  - {at: 90s, scale: {target: rollout/checkout, replicas: 6}}
  - {at: 100s, undo: rollout/checkout}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []kind.Verb{kind.SetImage, kind.Promote, kind.PromoteFull, kind.Abort, kind.Retry, kind.Pause, kind.Resume, kind.Restart, kind.Scale, kind.Undo}
	if len(sc.Actions) != len(want) {
		t.Fatalf("%d actions, want %d", len(sc.Actions), len(want))
	}
	for i, a := range sc.Actions {
		if v, ok := a.Verb(); !ok || v != want[i] || a.Target.Kind != kind.Rollout || a.Target.Name != "checkout" {
			t.Errorf("action %d (%s on %s) reads as verb %q, want %q on rollout/checkout", i, a.Kind, a.Target, v, want[i])
		}
	}
}

// What a Rollout does not take, and retry on anything but a Rollout, is
// refused at its line.
func TestRolloutActionsRefused(t *testing.T) {
	for action, want := range map[string]string{
		`{at: 10s, setEnv: {target: rollout/checkout, env: {A: "1"}}}`: `t.yaml:24: actions[0].setEnv target "rollout/checkout": setEnv does not apply to rollouts (they take promote, abort, retry, pause, resume, setImage, restart, undo, scale)`,
		`{at: 10s, retry: deployment/web}`:                             `t.yaml:24: actions[0].retry target "deployment/web": retry applies to Argo Rollouts only (write rollout/NAME)`,
	} {
		_, err := scenario.Parse("t.yaml", []byte(rolloutObjects+"actions:\n  - "+action+"\n"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant %s", action, err, want)
		}
	}
}
