package analysis

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/argo"
)

func n(i int) *intstr.IntOrString { v := intstr.FromInt32(int32(i)); return &v }

// Argo's own cases for assessMetricStatus (analysis/analysis_test.go,
// v1.10), kept as data: a metric's phase from its counts, running and
// terminating.
func TestMetricStatusAsArgo(t *testing.T) {
	type counts struct{ failed, successful, inconclusive, consecutiveSuccess, consecutiveError, count int32 }
	m := func(failure, inconclusive, successLimit, count *intstr.IntOrString, interval string) argo.Metric {
		return argo.Metric{Name: "success-rate", FailureLimit: failure, InconclusiveLimit: inconclusive,
			ConsecutiveSuccessLimit: successLimit, Count: count, Interval: interval}
	}
	for _, c := range []struct {
		name                 string
		metric               argo.Metric
		c                    counts
		last                 argo.AnalysisPhase
		running, terminating argo.AnalysisPhase
	}{
		{"FailureLimit 2, 3 failed", m(n(2), nil, nil, nil, "60s"), counts{failed: 3, count: 3}, argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed},
		{"FailureLimit 3, 3 failed", m(n(3), nil, nil, nil, "60s"), counts{failed: 3, count: 3}, argo.AnalysisPhaseFailed, argo.AnalysisPhaseRunning, argo.AnalysisPhaseSuccessful},
		{"ConsecutiveSuccessLimit reached", m(n(-1), nil, n(3), nil, "60s"), counts{failed: 3, successful: 4, consecutiveSuccess: 3, count: 7},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseSuccessful},
		{"ConsecutiveSuccessLimit not reached", m(n(-1), nil, n(5), nil, "60s"), counts{failed: 3, successful: 4, consecutiveSuccess: 3, count: 7},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseRunning, argo.AnalysisPhaseSuccessful},
		{"count reached, success limit not", m(n(-1), nil, n(5), n(7), "60s"), counts{failed: 3, successful: 4, consecutiveSuccess: 3, count: 7},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed},
		{"count reached, success limit too", m(n(-1), nil, n(3), n(7), "60s"), counts{failed: 3, successful: 4, consecutiveSuccess: 3, count: 7},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseSuccessful},
		{"count not reached, success limit is", m(n(-1), nil, n(3), n(9), "60s"), counts{failed: 3, successful: 4, consecutiveSuccess: 3, count: 7},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseSuccessful},
		{"count not reached, success limit not", m(n(-1), nil, n(5), n(9), "60s"), counts{failed: 3, successful: 4, consecutiveSuccess: 3, count: 7},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseRunning, argo.AnalysisPhaseSuccessful},
		{"both limits, neither", m(n(4), nil, n(4), nil, "60s"), counts{failed: 3, successful: 4, consecutiveSuccess: 3, count: 7},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseRunning, argo.AnalysisPhaseSuccessful},
		{"both limits, failure violated", m(n(4), nil, n(4), nil, "60s"), counts{failed: 5, successful: 9, count: 9},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed},
		{"both limits, success satisfied", m(n(4), nil, n(4), nil, "60s"), counts{failed: 3, successful: 5, consecutiveSuccess: 4, count: 8},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseSuccessful},
		{"both limits, both", m(n(4), nil, n(4), nil, "60s"), counts{failed: 5, successful: 5, consecutiveSuccess: 4, count: 10},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed},
		{"both limits, count reached, neither", m(n(4), nil, n(4), n(10), "60s"), counts{failed: 4, successful: 6, consecutiveSuccess: 3, count: 10},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseInconclusive, argo.AnalysisPhaseInconclusive},
		{"both limits, count reached, failure violated", m(n(4), nil, n(4), n(10), "60s"), counts{failed: 5, successful: 5, consecutiveSuccess: 3, count: 10},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed, argo.AnalysisPhaseFailed},
		{"both limits, count reached, success satisfied", m(n(4), nil, n(4), n(10), "60s"), counts{failed: 4, successful: 6, consecutiveSuccess: 4, count: 10},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseSuccessful},
		{"both limits, count not reached, neither", m(n(4), nil, n(4), n(10), "60s"), counts{failed: 3, successful: 5, consecutiveSuccess: 3, count: 8},
			argo.AnalysisPhaseFailed, argo.AnalysisPhaseRunning, argo.AnalysisPhaseSuccessful},
		{"InconclusiveLimit 2, 3 inconclusive", m(nil, n(2), nil, nil, "60s"), counts{inconclusive: 3, count: 3},
			argo.AnalysisPhaseInconclusive, argo.AnalysisPhaseInconclusive, argo.AnalysisPhaseInconclusive},
		{"InconclusiveLimit 3, 3 inconclusive", m(nil, n(3), nil, nil, "60s"), counts{inconclusive: 3, count: 3},
			argo.AnalysisPhaseInconclusive, argo.AnalysisPhaseRunning, argo.AnalysisPhaseSuccessful},
		{"5 errors in a row", m(nil, nil, nil, nil, "60s"), counts{consecutiveError: 5, count: 5}, argo.AnalysisPhaseError, argo.AnalysisPhaseError, argo.AnalysisPhaseError},
		{"4 errors in a row", m(nil, nil, nil, nil, "60s"), counts{consecutiveError: 4, count: 5}, argo.AnalysisPhaseError, argo.AnalysisPhaseRunning, argo.AnalysisPhaseSuccessful},
		{"count reached", m(nil, nil, nil, n(10), ""), counts{successful: 10, count: 10}, argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseSuccessful},
		{"count reached, some inconclusive", m(nil, nil, nil, n(10), ""), counts{successful: 5, inconclusive: 5, count: 10},
			argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseInconclusive, argo.AnalysisPhaseInconclusive},
	} {
		r := argo.MetricResult{Name: "success-rate", Failed: c.c.failed, Successful: c.c.successful, Inconclusive: c.c.inconclusive,
			ConsecutiveSuccess: c.c.consecutiveSuccess, ConsecutiveError: c.c.consecutiveError, Count: c.c.count,
			Measurements: []argo.Measurement{{Phase: c.last, Value: "99"}}}
		if got := MetricStatus(c.metric, r, false); got != c.running {
			t.Errorf("%s: %s, want %s", c.name, got, c.running)
		}
		if got := MetricStatus(c.metric, r, true); got != c.terminating {
			t.Errorf("%s, terminating: %s, want %s", c.name, got, c.terminating)
		}
	}
	if got := MetricStatus(argo.Metric{}, argo.MetricResult{}, false); got != argo.AnalysisPhasePending {
		t.Errorf("no measurements: %s, want Pending", got)
	}
	if got := MetricStatus(argo.Metric{}, argo.MetricResult{}, true); got != argo.AnalysisPhaseSuccessful {
		t.Errorf("no measurements, terminating: %s, want Successful", got)
	}
}

// Argo's cases for assessRunStatus: the run's phase is the worst of its
// completed metrics, with the message naming the limit crossed and what
// the provider said.
func TestAssessAsArgo(t *testing.T) {
	metrics := []argo.Metric{{Name: "run-forever", Interval: "60s"}, {Name: "failed-metric", Count: n(1)}}
	failedMeasurement := []argo.Measurement{{Phase: argo.AnalysisPhaseFailed}}
	for _, c := range []struct {
		name      string
		results   []argo.MetricResult
		terminate bool
		phase     argo.AnalysisPhase
		message   string
	}{
		{"one metric still running", []argo.MetricResult{{Name: "run-forever", Phase: argo.AnalysisPhaseSuccessful}, {Name: "failed-metric", Phase: argo.AnalysisPhaseRunning}},
			false, argo.AnalysisPhaseRunning, ""},
		{"worst of the completed", []argo.MetricResult{{Name: "run-forever", Phase: argo.AnalysisPhaseSuccessful}, {Name: "failed-metric", Phase: argo.AnalysisPhaseFailed}},
			false, argo.AnalysisPhaseFailed, ""},
		{"ErrorMessageAnalysisPhaseFail", []argo.MetricResult{{Name: "run-forever", Phase: argo.AnalysisPhaseSuccessful},
			{Name: "failed-metric", Phase: argo.AnalysisPhaseFailed, Failed: 1, Count: 1, Measurements: failedMeasurement}},
			false, argo.AnalysisPhaseFailed, `Metric "failed-metric" assessed Failed due to failed (1) > failureLimit (0)`},
		{"ErrorMessageFromProvider", []argo.MetricResult{{Name: "run-forever", Phase: argo.AnalysisPhaseSuccessful},
			{Name: "failed-metric", Phase: argo.AnalysisPhaseFailed, Failed: 1, Count: 1, Measurements: failedMeasurement, Message: "Provider Error"}},
			false, argo.AnalysisPhaseFailed, `Metric "failed-metric" assessed Failed due to failed (1) > failureLimit (0): "Error Message: Provider Error"`},
		{"MultipleFailures: the first named", []argo.MetricResult{{Name: "run-forever", Phase: argo.AnalysisPhaseFailed, Failed: 1},
			{Name: "failed-metric", Phase: argo.AnalysisPhaseFailed, Failed: 1, Count: 1, Measurements: failedMeasurement}},
			false, argo.AnalysisPhaseFailed, `Metric "run-forever" assessed Failed due to failed (1) > failureLimit (0)`},
		{"terminated before measuring", nil, true, argo.AnalysisPhaseSuccessful, "Run Terminated"},
		{"terminated while running", []argo.MetricResult{{Name: "run-forever", Phase: argo.AnalysisPhaseRunning, Successful: 2, Count: 2,
			Measurements: []argo.Measurement{{Phase: argo.AnalysisPhaseSuccessful}}}}, true, argo.AnalysisPhaseSuccessful, "Run Terminated"},
	} {
		run := &argo.AnalysisRun{Spec: argo.AnalysisRunSpec{Metrics: metrics, Terminate: c.terminate}}
		run.Status.MetricResults = c.results
		phase, message, _ := Assess(run)
		if phase != c.phase || message != c.message {
			t.Errorf("%s: %s %q, want %s %q", c.name, phase, message, c.phase, c.message)
		}
	}
}

// A series of measurements taken at the times Due says reaches Argo's
// verdict after as many measurements as Argo's controller takes: every
// interval, every ErrorRetryInterval after an error, none after the
// verdict, and the run's message in Argo's words.
func TestMeasurementsToVerdict(t *testing.T) {
	type v = argo.AnalysisPhase
	S, F, I, E := argo.AnalysisPhaseSuccessful, argo.AnalysisPhaseFailed, argo.AnalysisPhaseInconclusive, argo.AnalysisPhaseError
	for _, c := range []struct {
		name    string
		metric  argo.Metric
		series  []v
		taken   int
		at      []time.Duration // when each measurement was taken
		phase   v
		message string
	}{
		{"healthy", argo.Metric{Name: "m", Interval: "2s", Count: n(3)}, []v{S, S, S, S}, 3, []time.Duration{0, 2 * time.Second, 4 * time.Second},
			S, ""},
		{"failing", argo.Metric{Name: "m", Interval: "2s", Count: n(5), FailureLimit: n(1)}, []v{S, F, S, F, S}, 4,
			[]time.Duration{0, 2 * time.Second, 4 * time.Second, 6 * time.Second}, F, `Metric "m" assessed Failed due to failed (2) > failureLimit (1)`},
		{"inconclusive", argo.Metric{Name: "m", Interval: "1s"}, []v{S, I}, 2, []time.Duration{0, time.Second}, I,
			`Metric "m" assessed Inconclusive due to inconclusive (1) > inconclusiveLimit (0)`},
		{"erroring", argo.Metric{Name: "m", Interval: "1s", ConsecutiveErrorLimit: n(1)}, []v{S, E, E}, 3,
			[]time.Duration{0, time.Second, 11 * time.Second}, E, `Metric "m" assessed Error due to consecutiveErrors (2) > consecutiveErrorLimit (1): "Error Message: boom"`},
		{"one measurement without count or interval", argo.Metric{Name: "m"}, []v{S, F}, 1, []time.Duration{0}, S, ""},
	} {
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		run := &argo.AnalysisRun{Spec: argo.AnalysisRunSpec{Metrics: []argo.Metric{c.metric}}}
		run.Status.StartedAt = &metav1.Time{Time: start}
		now, taken := start, 0
		var at []time.Duration
		phase := argo.AnalysisPhaseRunning
		var message string
		for !phase.Completed() && taken < 20 {
			for _, m := range Due(run, now) {
				p := c.series[min(taken, len(c.series)-1)]
				meas := argo.Measurement{Phase: p, FinishedAt: &metav1.Time{Time: now}}
				if p == E {
					meas.Message = "boom"
				}
				if Result(run, m.Name) == nil {
					run.Status.MetricResults = append(run.Status.MetricResults, argo.MetricResult{Name: m.Name, Phase: argo.AnalysisPhaseRunning})
				}
				Record(Result(run, m.Name), meas)
				taken++
				at = append(at, now.Sub(start))
			}
			phase, message, _ = Assess(run)
			next, ok := Next(run)
			if !ok {
				break
			}
			now = next
		}
		if taken != c.taken || phase != c.phase || message != c.message {
			t.Errorf("%s: %d measurements → %s %q, want %d → %s %q", c.name, taken, phase, message, c.taken, c.phase, c.message)
		}
		if len(at) == len(c.at) {
			for i := range at {
				if at[i] != c.at[i] {
					t.Errorf("%s: measured at %v, want %v", c.name, at, c.at)
					break
				}
			}
		} else {
			t.Errorf("%s: measured at %v, want %v", c.name, at, c.at)
		}
	}
}

// A run concludes by itself while it has no verdict and every metric
// takes a bounded number of measurements, or it is asked to stop; a
// metric at an interval with no count runs until its Rollout ends it.
func TestConcludes(t *testing.T) {
	run := func(phase argo.AnalysisPhase, terminate bool, metrics ...argo.Metric) *argo.AnalysisRun {
		return &argo.AnalysisRun{Spec: argo.AnalysisRunSpec{Metrics: metrics, Terminate: terminate}, Status: argo.AnalysisRunStatus{Phase: phase}}
	}
	counted := argo.Metric{Name: "a", Interval: "1s", Count: n(3)}
	once := argo.Metric{Name: "b"}
	endless := argo.Metric{Name: "c", Interval: "1s"}
	for _, tc := range []struct {
		name string
		run  *argo.AnalysisRun
		want bool
	}{
		{"counted metrics, running", run(argo.AnalysisPhaseRunning, false, counted, once), true},
		{"not yet reconciled", run("", false, counted), true},
		{"a verdict reached", run(argo.AnalysisPhaseFailed, false, counted), false},
		{"a metric without count at an interval", run(argo.AnalysisPhaseRunning, false, counted, endless), false},
		{"that one terminated", run(argo.AnalysisPhaseRunning, true, endless), true},
	} {
		if got := Concludes(tc.run); got != tc.want {
			t.Errorf("%s: Concludes = %v, want %v", tc.name, got, tc.want)
		}
	}
}
