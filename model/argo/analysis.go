package argo

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// The labels Argo's controller puts on an AnalysisRun it starts for a
// Rollout: what the run is for, and a step's index.
const (
	RolloutTypeLabel    = "rollout-type"
	StepIndexLabel      = "step-index"
	RunForStep          = "Step"
	RunForBackground    = "Background"
	RunForPrePromotion  = "PrePromotion"
	RunForPostPromotion = "PostPromotion"
)

// Limits are how many failed, inconclusive and consecutive error
// measurements a metric takes before Argo's controller assesses it Failed,
// Inconclusive or Error (Argo v1.10's analysis/analysis.go and
// utils/defaults): failureLimit 0 unless set, negative for none;
// inconclusiveLimit 0; consecutiveErrorLimit 4.
type Limits struct {
	Failure, Inconclusive, ConsecutiveError int32
}

// DefaultConsecutiveErrorLimit is Argo's consecutiveErrorLimit when a
// metric sets none.
const DefaultConsecutiveErrorLimit = 4

// LimitsOf are metric m's limits, as set in its AnalysisRun's spec (where
// a template's arguments are already resolved).
func LimitsOf(m Metric) Limits {
	l := Limits{ConsecutiveError: DefaultConsecutiveErrorLimit}
	set := func(v *intstr.IntOrString, to *int32) {
		if v != nil {
			*to = int32(v.IntValue())
		}
	}
	set(m.FailureLimit, &l.Failure)
	set(m.InconclusiveLimit, &l.Inconclusive)
	set(m.ConsecutiveErrorLimit, &l.ConsecutiveError)
	return l
}

// Crossed says which of l's limits result has gone past as Argo's
// controller decides it (assessMetricFailureInconclusiveOrError: each
// check overrides the one before, so errors in a row outrank
// inconclusive, which outranks failed; only failureLimit can be turned off
// with a negative value), as the operator reads it ("failed 2 > limit 1 →
// Failed"), and the phase it leads to; "" and no phase while none is.
func (l Limits) Crossed(r MetricResult) (AnalysisPhase, string) {
	var phase AnalysisPhase
	var why string
	if l.Failure >= 0 && r.Failed > l.Failure {
		phase, why = AnalysisPhaseFailed, fmt.Sprintf("failed %d > limit %d → Failed", r.Failed, l.Failure)
	}
	if r.Inconclusive > l.Inconclusive {
		phase, why = AnalysisPhaseInconclusive, fmt.Sprintf("inconclusive %d > limit %d → Inconclusive", r.Inconclusive, l.Inconclusive)
	}
	if r.ConsecutiveError > l.ConsecutiveError {
		phase, why = AnalysisPhaseError, fmt.Sprintf("%d errors in a row > limit %d → Error", r.ConsecutiveError, l.ConsecutiveError)
	}
	return phase, why
}
