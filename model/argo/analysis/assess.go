package analysis

import (
	"fmt"
	"strings"

	"rollscope/model/argo"
)

// EffectiveCount is how many measurements m takes, as Argo counts them:
// count when set (and not 0); else 1 without an interval; else no end
// (ok false).
func EffectiveCount(m argo.Metric) (n int32, ok bool) {
	if m.Count == nil || m.Count.IntValue() == 0 {
		if m.Interval == "" {
			return 1, true
		}
		return 0, false
	}
	return int32(m.Count.IntValue()), true
}

// Record adds a finished measurement to r's counts, as Argo's
// runMeasurements does: an error counts towards errors in a row, not
// towards count.
func Record(r *argo.MetricResult, m argo.Measurement) {
	switch m.Phase {
	case argo.AnalysisPhaseSuccessful:
		r.Successful++
		r.Count++
		r.ConsecutiveError = 0
		r.ConsecutiveSuccess++
	case argo.AnalysisPhaseFailed:
		r.Failed++
		r.Count++
		r.ConsecutiveError, r.ConsecutiveSuccess = 0, 0
	case argo.AnalysisPhaseInconclusive:
		r.Inconclusive++
		r.Count++
		r.ConsecutiveError, r.ConsecutiveSuccess = 0, 0
	case argo.AnalysisPhaseError:
		r.Error++
		r.ConsecutiveError++
		r.ConsecutiveSuccess = 0
	}
	r.Measurements = append(r.Measurements, m)
}

// MetricStatus is metric m's phase from its result r, as Argo's
// assessMetricStatus decides it (every measurement here is finished): a
// limit crossed; consecutiveSuccessLimit reached; its count reached
// (Inconclusive or Failed when a consecutiveSuccessLimit was wanted and
// not reached); else still Running, or Successful once the run is
// terminating.
func MetricStatus(m argo.Metric, r argo.MetricResult, terminating bool) argo.AnalysisPhase {
	if r.Phase.Completed() {
		return r.Phase
	}
	if len(r.Measurements) == 0 {
		if terminating {
			return argo.AnalysisPhaseSuccessful
		}
		return argo.AnalysisPhasePending
	}
	if phase, _ := argo.LimitsOf(m).Assessed(r); phase != "" {
		return phase
	}
	successLimit := 0
	if m.ConsecutiveSuccessLimit != nil {
		successLimit = m.ConsecutiveSuccessLimit.IntValue()
	}
	if successLimit > 0 && r.ConsecutiveSuccess >= int32(successLimit) {
		return argo.AnalysisPhaseSuccessful
	}
	if n, ok := EffectiveCount(m); ok && r.Count >= n {
		failureApplicable := m.FailureLimit == nil || m.FailureLimit.IntValue() >= 0
		switch {
		case failureApplicable && successLimit > 0:
			return argo.AnalysisPhaseInconclusive
		case successLimit > 0:
			return argo.AnalysisPhaseFailed
		}
		return argo.AnalysisPhaseSuccessful
	}
	if terminating {
		return argo.AnalysisPhaseSuccessful
	}
	return argo.AnalysisPhaseRunning
}

// Terminating says whether run is stopping: asked to, or one of its
// metrics already ended Failed, Error or Inconclusive.
func Terminating(run *argo.AnalysisRun) bool {
	if run.Spec.Terminate {
		return true
	}
	for _, r := range run.Status.MetricResults {
		switch r.Phase {
		case argo.AnalysisPhaseFailed, argo.AnalysisPhaseError, argo.AnalysisPhaseInconclusive:
			return true
		}
	}
	return false
}

// Result is the result of the metric named name in run, nil before its
// first measurement.
func Result(run *argo.AnalysisRun, name string) *argo.MetricResult {
	for i := range run.Status.MetricResults {
		if run.Status.MetricResults[i].Name == name {
			return &run.Status.MetricResults[i]
		}
	}
	return nil
}

// MetricEnded is a metric reaching its verdict during an assessment: Argo
// records an event for it ("Metric 'NAME' Completed. Result: PHASE").
type MetricEnded struct {
	Metric string
	Phase  argo.AnalysisPhase
}

// Assess updates run's metric phases and run summary from their
// measurements and says the run's phase and message, as Argo's
// assessRunStatus does: Running while a metric is; else the worst metric
// phase, with why ("Metric \"NAME\" assessed Failed due to failed (1) >
// failureLimit (0)"); Successful when terminated before any measurement.
// It also returns the metrics that reached their verdict now.
func Assess(run *argo.AnalysisRun) (argo.AnalysisPhase, string, []MetricEnded) {
	var worst argo.AnalysisPhase
	var message string
	var ended []MetricEnded
	terminating := Terminating(run)
	everythingCompleted := true
	if run.Spec.Terminate {
		message = "Run Terminated"
	}
	summary := argo.RunSummary{}
	for _, m := range run.Spec.Metrics {
		summary.Count++
		r := Result(run, m.Name)
		if r == nil {
			everythingCompleted = false
			continue
		}
		status := MetricStatus(m, *r, terminating)
		if r.Phase != status {
			if status.Completed() {
				ended = append(ended, MetricEnded{m.Name, status})
			}
			if n := len(r.Measurements); n > 0 {
				r.Message = r.Measurements[n-1].Message
			}
			r.Phase = status
		}
		if !status.Completed() {
			everythingCompleted = false
			continue
		}
		phase, why := argo.LimitsOf(m).Assessed(*r)
		if worst == "" || IsWorse(worst, status) {
			worst = status
			if why != "" {
				message = fmt.Sprintf("Metric \"%s\" assessed %s due to %s", m.Name, status, why)
				if r.Message != "" {
					message += fmt.Sprintf(": \"Error Message: %s\"", r.Message)
				}
			}
		}
		switch phase {
		case argo.AnalysisPhaseError:
			summary.Error++
		case argo.AnalysisPhaseFailed:
			summary.Failed++
		case argo.AnalysisPhaseInconclusive:
			summary.Inconclusive++
		default:
			summary.Successful++
		}
	}
	message = strings.TrimSpace(message)
	run.Status.RunSummary = summary
	if terminating {
		if worst == "" {
			return argo.AnalysisPhaseSuccessful, message, ended
		}
		return worst, message, ended
	}
	if !everythingCompleted || worst == "" {
		return argo.AnalysisPhaseRunning, "", ended
	}
	return worst, message, ended
}

// order is Argo's analysisStatusOrder, best first.
var order = []argo.AnalysisPhase{
	argo.AnalysisPhaseSuccessful,
	argo.AnalysisPhaseRunning,
	argo.AnalysisPhasePending,
	argo.AnalysisPhaseInconclusive,
	argo.AnalysisPhaseError,
	argo.AnalysisPhaseFailed,
}

// IsWorse says whether next is worse than current in Argo's order.
func IsWorse(current, next argo.AnalysisPhase) bool {
	ci, ni := 0, 0
	for i, p := range order {
		if current == p {
			ci = i
		}
		if next == p {
			ni = i
		}
	}
	return ni > ci
}

// Concludes says whether run is still to reach a verdict by itself: it
// has none yet, and it is asked to stop or every metric takes a bounded
// number of measurements. A metric measured at an interval with no count
// goes on until its Rollout ends the run.
func Concludes(run *argo.AnalysisRun) bool {
	if run.Status.Phase.Completed() {
		return false
	}
	if run.Spec.Terminate {
		return true
	}
	for _, m := range run.Spec.Metrics {
		if _, bounded := EffectiveCount(m); !bounded {
			return false
		}
	}
	return true
}
