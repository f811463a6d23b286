package argo_test

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"rollscope/model/argo"
)

// A canary Rollout as an operator writes it decodes field for field, keeps
// what rollscope does not model (a traffic router, an experiment step) for
// the console to name, and copies without sharing anything.
func TestRolloutDecodesArgosFieldNames(t *testing.T) {
	const manifest = `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: checkout, namespace: shop}
spec:
  replicas: 10
  revisionHistoryLimit: 3
  progressDeadlineSeconds: 120
  progressDeadlineAbort: true
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec: {containers: [{name: app, image: "shop/checkout:v2"}]}
  strategy:
    canary:
      maxSurge: "25%"
      maxUnavailable: 0
      trafficRouting: {nginx: {stableIngress: checkout}}
      steps:
      - setWeight: 20
      - pause: {}
      - setCanaryScale: {replicas: 3}
      - analysis: {templates: [{templateName: error-rate}], args: [{name: service, value: checkout}]}
      - experiment: {templates: [{name: baseline, specRef: stable}]}
      - pause: {duration: 10m}
status:
  phase: Paused
  currentStepIndex: 1
  pauseConditions: [{reason: CanaryPauseStep, startTime: "2026-12-02T03:12:00Z"}]
  canary: {currentStepAnalysisRunStatus: {name: checkout-7f9-4, status: Failed, message: "metric error-rate assessed Failed"}}
`
	var r argo.Rollout
	if err := yaml.UnmarshalStrict([]byte(manifest), &r); err != nil {
		t.Fatal(err)
	}
	c := r.Spec.Strategy.Canary
	if c == nil || len(c.Steps) != 6 || *c.Steps[0].SetWeight != 20 || c.Steps[1].Pause == nil || c.Steps[1].Pause.Duration != nil ||
		*c.Steps[2].SetCanaryScale.Replicas != 3 || c.Steps[3].Analysis.Templates[0].TemplateName != "error-rate" ||
		len(c.Steps[4].Experiment) == 0 || c.Steps[5].Pause.Duration.String() != "10m" {
		t.Fatalf("canary steps decoded as %+v", c)
	}
	if len(c.TrafficRouting) == 0 || c.MaxSurge.String() != "25%" || !r.Spec.ProgressDeadlineAbort || *r.Spec.RevisionHistoryLimit != 3 {
		t.Errorf("spec decoded as %+v", r.Spec)
	}
	if *r.Status.CurrentStepIndex != 1 || r.Status.PauseConditions[0].Reason != argo.PauseReasonCanaryPauseStep ||
		r.Status.Canary.CurrentStepAnalysisRunStatus.Status != argo.AnalysisPhaseFailed {
		t.Errorf("status decoded as %+v", r.Status)
	}
	cp := r.DeepCopy()
	if !reflect.DeepEqual(cp, &r) {
		t.Fatalf("the copy differs:\n%+v\n%+v", cp, &r)
	}
	*cp.Spec.Strategy.Canary.Steps[0].SetWeight = 50
	cp.Spec.Template.Spec.Containers[0].Image = "shop/checkout:v3"
	if *r.Spec.Strategy.Canary.Steps[0].SetWeight != 20 || r.Spec.Template.Spec.Containers[0].Image != "shop/checkout:v2" {
		t.Error("the copy shares its steps or template with the original")
	}
}

// A strategy field Argo has not got survives a decode, a copy and the
// unstructured converter the dynamic client's objects go through, so the
// manifest check can name it.
func TestAnUnknownStrategyFieldIsKept(t *testing.T) {
	var r argo.Rollout
	if err := yaml.Unmarshal([]byte(`{spec: {strategy: {rollingUpdate: {maxSurge: 1}, canary: {steps: [{setWeight: 20}]}}}}`), &r); err != nil {
		t.Fatal(err)
	}
	if got := r.Spec.Strategy.UnknownFields(); !reflect.DeepEqual(got, []string{"rollingUpdate"}) || r.Spec.Strategy.Canary == nil {
		t.Fatalf("unknown fields %v, canary %v", got, r.Spec.Strategy.Canary)
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(r.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	var back argo.Rollout
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Spec.Strategy.UnknownFields(); !reflect.DeepEqual(got, []string{"rollingUpdate"}) || *back.Spec.Strategy.Canary.Steps[0].SetWeight != 20 {
		t.Errorf("through unstructured: unknown %v, strategy %+v", got, back.Spec.Strategy)
	}
}
