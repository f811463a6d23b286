package argo

import "fmt"

// Modelled is what rollscope's embedded Argo controller runs, for the
// sentences that refuse or decline anything else.
const Modelled = "the basic canary (setWeight, pause, setCanaryScale and analysis steps and a background analysis of namespaced AnalysisTemplates, without a traffic router, services or experiments) and blue/green without analysis"

// Unmodelled is the first field of r that rollscope's embedded controller
// does not run (its path, as a manifest spells it, and what it is), ""
// when the Rollout is a basic canary or a blue/green one it runs as Argo
// does. A forecast of
// such a Rollout, or a scenario declaring it, would be false.
func Unmodelled(r *Rollout) (path, what string) {
	s := &r.Spec
	if bg := s.Strategy.BlueGreen; bg != nil {
		switch {
		case s.WorkloadRef != nil:
			return "spec.workloadRef", "a workloadRef"
		case bg.PrePromotionAnalysis != nil:
			return "spec.strategy.blueGreen.prePromotionAnalysis", "a pre-promotion analysis"
		case bg.PostPromotionAnalysis != nil:
			return "spec.strategy.blueGreen.postPromotionAnalysis", "a post-promotion analysis"
		}
		return "", ""
	}
	switch c := s.Strategy.Canary; {
	case s.WorkloadRef != nil:
		return "spec.workloadRef", "a workloadRef"
	case c == nil:
		return "spec.strategy", "a strategy other than canary"
	case len(c.TrafficRouting) > 0:
		return "spec.strategy.canary.trafficRouting", "a traffic router"
	case clusterScoped(c.Analysis):
		return "spec.strategy.canary.analysis.templates", "a ClusterAnalysisTemplate"
	case c.CanaryService != "":
		return "spec.strategy.canary.canaryService", "a canary service"
	case c.StableService != "":
		return "spec.strategy.canary.stableService", "a stable service"
	}
	for i, st := range s.Strategy.Canary.Steps {
		at := fmt.Sprintf("spec.strategy.canary.steps[%d].", i)
		switch {
		case clusterScoped(st.Analysis):
			return at + "analysis.templates", "a ClusterAnalysisTemplate"
		case len(st.Experiment) > 0:
			return at + "experiment", "an experiment step"
		case len(st.Plugin) > 0:
			return at + "plugin", "a plugin step"
		case len(st.SetHeaderRoute) > 0:
			return at + "setHeaderRoute", "a header route step"
		case len(st.SetMirrorRoute) > 0:
			return at + "setMirrorRoute", "a mirror route step"
		}
	}
	return "", ""
}

func clusterScoped(a *RolloutAnalysis) bool {
	if a == nil {
		return false
	}
	for _, t := range a.Templates {
		if t.ClusterScope != nil && *t.ClusterScope {
			return true
		}
	}
	return false
}

// Analysed reports whether r's canary runs an analysis (a step's or a
// background one): its outcome is what a provider measures.
func Analysed(r *Rollout) bool {
	c := r.Spec.Strategy.Canary
	if c == nil {
		return false
	}
	if c.Analysis != nil {
		return true
	}
	for _, st := range c.Steps {
		if st.Analysis != nil {
			return true
		}
	}
	return false
}
