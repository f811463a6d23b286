package analysisrun

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/argo"
)

func count(i int) *intstr.IntOrString { v := intstr.FromInt32(int32(i)); return &v }

// A run whose metric is answered from a series reaches Argo's verdict
// after as many measurements as Argo's controller takes, at the same
// times, with its messages and events: healthy, failing, flapping and
// erroring series.
func TestSeriesReachArgosVerdict(t *testing.T) {
	errRate := func(limit, errLimit int) argo.Metric {
		return argo.Metric{Name: "error-rate", Interval: "2s", Count: count(4), SuccessCondition: "result < 0.05",
			FailureLimit: count(limit), ConsecutiveErrorLimit: count(errLimit)}
	}
	v := func(f float64) Value { return Value{Value: f} }
	for _, c := range []struct {
		name    string
		metric  argo.Metric
		series  []Value
		taken   string // the measurements, as phase@seconds
		phase   argo.AnalysisPhase
		message string
		events  string
	}{
		{"healthy", errRate(0, 4), []Value{v(0.01), v(0.02)}, "Successful@0 Successful@2 Successful@4 Successful@6",
			argo.AnalysisPhaseSuccessful, "", "MetricSuccessful AnalysisRunSuccessful"},
		{"failing", errRate(1, 4), []Value{v(0.01), v(0.02), v(0.09), v(0.10)}, "Successful@0 Successful@2 Failed@4 Failed@6",
			argo.AnalysisPhaseFailed, `Metric "error-rate" assessed Failed due to failed (2) > failureLimit (1)`, "MetricFailed AnalysisRunFailed"},
		{"flapping", errRate(1, 4), []Value{v(0.01), v(0.09), v(0.01), v(0.09)}, "Successful@0 Failed@2 Successful@4 Failed@6",
			argo.AnalysisPhaseFailed, `Metric "error-rate" assessed Failed due to failed (2) > failureLimit (1)`, "MetricFailed AnalysisRunFailed"},
		{"erroring", errRate(0, 1), []Value{v(0.01), {Error: "connection refused"}}, "Successful@0 Error@2 Error@12",
			argo.AnalysisPhaseError, `Metric "error-rate" assessed Error due to consecutiveErrors (2) > consecutiveErrorLimit (1): "Error Message: connection refused"`,
			"MetricError AnalysisRunError"},
		{"a condition that cannot read the value", errRate(0, 0), []Value{{Value: "n/a"}}, "Error@0",
			argo.AnalysisPhaseError, `Metric "error-rate" assessed Error due to consecutiveErrors (1) > consecutiveErrorLimit (0): "Error Message: could not evaluate successCondition "result < 0.05": invalid operation: < (mismatched types string and float64)"`,
			"MetricError AnalysisRunError"},
	} {
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		run := &argo.AnalysisRun{Spec: argo.AnalysisRunSpec{Metrics: []argo.Metric{c.metric}}}
		s := Series{Metric: "error-rate", Values: c.series}
		measure := func(_ argo.Metric, n int) (any, error) { return s.At(n, nil) }
		now := start
		var events []string
		for i := 0; i < 20; i++ {
			evs, next, ok := Reconcile(run, now, measure)
			for _, e := range evs {
				events = append(events, e.Reason)
			}
			if !ok {
				break
			}
			now = next
		}
		var taken []string
		for _, m := range run.Status.MetricResults[0].Measurements {
			taken = append(taken, fmt.Sprintf("%s@%d", m.Phase, int(m.FinishedAt.Sub(start).Seconds())))
		}
		if got := strings.Join(taken, " "); got != c.taken {
			t.Errorf("%s: measured %s, want %s", c.name, got, c.taken)
		}
		if run.Status.Phase != c.phase || run.Status.Message != c.message {
			t.Errorf("%s: %s %q, want %s %q", c.name, run.Status.Phase, run.Status.Message, c.phase, c.message)
		}
		if got := strings.Join(events, " "); got != c.events {
			t.Errorf("%s: events %s, want %s", c.name, got, c.events)
		}
	}
}

// A series by image answers with the value of the first glob that
// matches an image the canary's pods run.
func TestSeriesByImage(t *testing.T) {
	s := Series{Metric: "latency", ByImage: []ImageValue{{"*:v2", Value{Value: 0.4}}, {"*", Value{Value: 0.1}}}}
	for _, c := range []struct {
		images []string
		want   any
	}{{[]string{"registry.example/shop:v2"}, 0.4}, {[]string{"registry.example/shop:v1"}, 0.1}} {
		if got, err := s.At(3, c.images); err != nil || got != c.want {
			t.Errorf("%v: %v %v, want %v", c.images, got, err, c.want)
		}
	}
	if _, err := (Series{ByImage: []ImageValue{{"*:v2", Value{Value: 1.0}}}}).At(0, []string{"a:v1"}); err == nil {
		t.Error("no glob matches: want an error, as a provider returning nothing")
	}
}
