package argo

import "fmt"

// Modelled is what rollscope's embedded Argo controller runs, for the
// sentences that refuse or decline anything else.
const Modelled = "the basic canary (setWeight, pause and setCanaryScale steps, without a traffic router, services, analysis or experiments) and blue/green without analysis"

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
	case c.Analysis != nil:
		return "spec.strategy.canary.analysis", "a background analysis"
	case c.CanaryService != "":
		return "spec.strategy.canary.canaryService", "a canary service"
	case c.StableService != "":
		return "spec.strategy.canary.stableService", "a stable service"
	}
	for i, st := range s.Strategy.Canary.Steps {
		at := fmt.Sprintf("spec.strategy.canary.steps[%d].", i)
		switch {
		case st.Analysis != nil:
			return at + "analysis", "an analysis step"
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
