package analysisrun

import (
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
)

// MeasurementHistoryLimit is how many measurements Argo keeps per metric.
const MeasurementHistoryLimit = 10

// Measure is metric m's nth measurement (0-based, errors counted): what
// its provider returns, or the provider's error.
type Measure func(m argo.Metric, n int) (any, error)

// Event is an event Argo's controller records about the run.
type Event struct {
	Type, Reason, Message string
}

// Reconcile is one pass of Argo's reconcileAnalysisRun over run at now:
// the measurements due are taken, each metric and then the run assessed,
// measurements past the history limit dropped. It returns the events Argo
// records, and when the run next needs a pass (ok false: never, it has
// its verdict or nothing more is due).
func Reconcile(run *argo.AnalysisRun, now time.Time, measure Measure) (events []Event, next time.Time, ok bool) {
	if run.Status.Phase.Completed() {
		return nil, time.Time{}, false
	}
	at := metav1.NewTime(now)
	for _, m := range analysis.Due(run, now) {
		r := analysis.Result(run, m.Name)
		if r == nil {
			run.Status.MetricResults = append(run.Status.MetricResults, argo.MetricResult{Name: m.Name, Phase: argo.AnalysisPhaseRunning})
			r = &run.Status.MetricResults[len(run.Status.MetricResults)-1]
		}
		analysis.Record(r, measurement(m, at, measure, int(r.Count+r.Error)))
	}
	if run.Status.StartedAt == nil {
		run.Status.StartedAt = &at
	}
	phase, message, ended := analysis.Assess(run)
	for _, e := range ended {
		events = append(events, Event{eventType(e.Phase), "Metric" + string(e.Phase), fmt.Sprintf("Metric '%s' Completed. Result: %s", e.Metric, e.Phase)})
	}
	if phase != run.Status.Phase {
		run.Status.Phase, run.Status.Message = phase, message
		if phase.Completed() {
			events = append(events, Event{eventType(phase), "AnalysisRun" + string(phase), fmt.Sprintf("Analysis Completed. Result: %s", phase)})
			if run.Status.CompletedAt == nil {
				run.Status.CompletedAt = &at
			}
		}
	}
	for i := range run.Status.MetricResults {
		r := &run.Status.MetricResults[i]
		if n := len(r.Measurements); n > MeasurementHistoryLimit {
			r.Measurements = r.Measurements[n-MeasurementHistoryLimit:]
		}
	}
	next, ok = analysis.Next(run)
	return events, next, ok
}

// measurement takes metric m's next measurement as Argo's web provider
// records it: the value as JSON and its phase, or an Error with the
// provider's or the condition's message and no value. n counts the
// metric's measurements so far, errors too (a series is read per request,
// as a test server serving it counts them).
func measurement(m argo.Metric, at metav1.Time, measure Measure, n int) argo.Measurement {
	out := argo.Measurement{StartedAt: &at, FinishedAt: &at}
	value, err := measure(m, n)
	if err == nil {
		var phase argo.AnalysisPhase
		if phase, err = analysis.Evaluate(value, m); err == nil {
			b, _ := json.Marshal(value)
			out.Phase, out.Value = phase, string(b)
			return out
		}
	}
	out.Phase, out.Message = argo.AnalysisPhaseError, err.Error()
	return out
}

func eventType(p argo.AnalysisPhase) string {
	if p == argo.AnalysisPhaseError || p == argo.AnalysisPhaseFailed {
		return corev1.EventTypeWarning
	}
	return corev1.EventTypeNormal
}
