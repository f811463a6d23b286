package argo_test

import (
	"encoding/json"
	"testing"

	"rollscope/model/argo"
)

// Every Rollout shape the embedded controller does not run is named by
// the field that makes it so; a basic canary has none.
func TestUnmodelledNamesTheField(t *testing.T) {
	w := int32(20)
	basic := func() *argo.Rollout {
		return &argo.Rollout{Spec: argo.RolloutSpec{Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{
			Steps: []argo.CanaryStep{{SetWeight: &w}, {Pause: &argo.RolloutPause{}}, {SetCanaryScale: &argo.SetCanaryScale{Weight: &w}}}}}}}
	}
	raw := json.RawMessage(`{}`)
	yes := true
	cases := []struct {
		name string
		edit func(r *argo.Rollout)
		path string
	}{
		{"basic canary", func(*argo.Rollout) {}, ""},
		{"blue/green", func(r *argo.Rollout) { r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{}} }, ""},
		{"blue/green with analysis", func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{PrePromotionAnalysis: &argo.RolloutAnalysis{}}}
		}, "spec.strategy.blueGreen.prePromotionAnalysis"},
		{"workloadRef", func(r *argo.Rollout) { r.Spec.WorkloadRef = &argo.ObjectRef{Name: "web"} }, "spec.workloadRef"},
		{"traffic router", func(r *argo.Rollout) { r.Spec.Strategy.Canary.TrafficRouting = raw }, "spec.strategy.canary.trafficRouting"},
		{"background analysis", func(r *argo.Rollout) { r.Spec.Strategy.Canary.Analysis = &argo.RolloutAnalysis{} }, ""},
		{"background analysis of a cluster template", func(r *argo.Rollout) {
			r.Spec.Strategy.Canary.Analysis = &argo.RolloutAnalysis{Templates: []argo.AnalysisTemplateRef{{TemplateName: "t", ClusterScope: &yes}}}
		}, "spec.strategy.canary.analysis.templates"},
		{"canary service", func(r *argo.Rollout) { r.Spec.Strategy.Canary.CanaryService = "web-canary" }, "spec.strategy.canary.canaryService"},
		{"analysis step", func(r *argo.Rollout) {
			r.Spec.Strategy.Canary.Steps[1] = argo.CanaryStep{Analysis: &argo.RolloutAnalysis{}}
		}, ""},
		{"analysis step of a cluster template", func(r *argo.Rollout) {
			r.Spec.Strategy.Canary.Steps[1] = argo.CanaryStep{Analysis: &argo.RolloutAnalysis{Templates: []argo.AnalysisTemplateRef{{TemplateName: "t", ClusterScope: &yes}}}}
		}, "spec.strategy.canary.steps[1].analysis.templates"},
		{"experiment step", func(r *argo.Rollout) { r.Spec.Strategy.Canary.Steps[2] = argo.CanaryStep{Experiment: raw} }, "spec.strategy.canary.steps[2].experiment"},
		{"plugin step", func(r *argo.Rollout) { r.Spec.Strategy.Canary.Steps[0] = argo.CanaryStep{Plugin: raw} }, "spec.strategy.canary.steps[0].plugin"},
	}
	for _, tc := range cases {
		r := basic()
		tc.edit(r)
		if path, what := argo.Unmodelled(r); path != tc.path || (path != "") != (what != "") {
			t.Errorf("%s: Unmodelled %q (%q), want %q", tc.name, path, what, tc.path)
		}
	}
}
