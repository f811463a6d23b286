package argo

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// A metric's limits default as Argo's controller defaults them, and the
// first one crossed, in its order, says why the metric ended as it did.
func TestLimitsCrossed(t *testing.T) {
	n := func(i int) *intstr.IntOrString { v := intstr.FromInt32(int32(i)); return &v }
	s := func(v string) *intstr.IntOrString { x := intstr.FromString(v); return &x }
	for _, c := range []struct {
		name   string
		metric Metric
		result MetricResult
		limits Limits
		phase  AnalysisPhase
		why    string
	}{
		{"defaults, one failure", Metric{}, MetricResult{Failed: 1}, Limits{0, 0, 4}, AnalysisPhaseFailed, "failed 1 > limit 0 → Failed"},
		{"within failureLimit", Metric{FailureLimit: n(2)}, MetricResult{Failed: 2}, Limits{2, 0, 4}, "", ""},
		{"past failureLimit", Metric{FailureLimit: n(2)}, MetricResult{Failed: 3}, Limits{2, 0, 4}, AnalysisPhaseFailed, "failed 3 > limit 2 → Failed"},
		{"no failure limit", Metric{FailureLimit: n(-1)}, MetricResult{Failed: 9, Inconclusive: 1}, Limits{-1, 0, 4}, AnalysisPhaseInconclusive,
			"inconclusive 1 > limit 0 → Inconclusive"},
		{"a resolved argument", Metric{InconclusiveLimit: s("3")}, MetricResult{Inconclusive: 3}, Limits{0, 3, 4}, "", ""},
		{"errors in a row", Metric{}, MetricResult{Error: 7, ConsecutiveError: 5}, Limits{0, 0, 4}, AnalysisPhaseError, "5 errors in a row > limit 4 → Error"},
		{"errors not in a row", Metric{ConsecutiveErrorLimit: n(2)}, MetricResult{Error: 7, ConsecutiveError: 2}, Limits{0, 0, 2}, "", ""},
		// Each check overrides the one before, as in Argo's controller.
		{"errors outrank the rest", Metric{}, MetricResult{Failed: 1, Inconclusive: 1, ConsecutiveError: 5}, Limits{0, 0, 4}, AnalysisPhaseError,
			"5 errors in a row > limit 4 → Error"},
		{"inconclusive outranks failed", Metric{}, MetricResult{Failed: 1, Inconclusive: 1}, Limits{0, 0, 4}, AnalysisPhaseInconclusive,
			"inconclusive 1 > limit 0 → Inconclusive"},
	} {
		l := LimitsOf(c.metric)
		if l != c.limits {
			t.Errorf("%s: limits %+v, want %+v", c.name, l, c.limits)
		}
		if phase, why := l.Crossed(c.result); phase != c.phase || why != c.why {
			t.Errorf("%s: %q %q, want %q %q", c.name, phase, why, c.phase, c.why)
		}
	}
}
