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
	return l.worded(r, operatorWords)
}

// Assessed is Crossed in Argo's own words, as its controller writes them
// into an AnalysisRun's message ("failed (2) > failureLimit (1)").
func (l Limits) Assessed(r MetricResult) (AnalysisPhase, string) {
	return l.worded(r, argoWords)
}

var (
	operatorWords = map[AnalysisPhase]string{
		AnalysisPhaseFailed:       "failed %d > limit %d → Failed",
		AnalysisPhaseInconclusive: "inconclusive %d > limit %d → Inconclusive",
		AnalysisPhaseError:        "%d errors in a row > limit %d → Error",
	}
	argoWords = map[AnalysisPhase]string{
		AnalysisPhaseFailed:       "failed (%d) > failureLimit (%d)",
		AnalysisPhaseInconclusive: "inconclusive (%d) > inconclusiveLimit (%d)",
		AnalysisPhaseError:        "consecutiveErrors (%d) > consecutiveErrorLimit (%d)",
	}
)

func (l Limits) worded(r MetricResult, words map[AnalysisPhase]string) (AnalysisPhase, string) {
	phase, n, limit := l.crossed(r)
	if phase == "" {
		return "", ""
	}
	return phase, fmt.Sprintf(words[phase], n, limit)
}

// crossed is the last of l's limits, in Argo's order, that r is past: the
// phase it leads to, r's count and the limit.
func (l Limits) crossed(r MetricResult) (phase AnalysisPhase, n, limit int32) {
	if l.Failure >= 0 && r.Failed > l.Failure {
		phase, n, limit = AnalysisPhaseFailed, r.Failed, l.Failure
	}
	if r.Inconclusive > l.Inconclusive {
		phase, n, limit = AnalysisPhaseInconclusive, r.Inconclusive, l.Inconclusive
	}
	if r.ConsecutiveError > l.ConsecutiveError {
		phase, n, limit = AnalysisPhaseError, r.ConsecutiveError, l.ConsecutiveError
	}
	return phase, n, limit
}
