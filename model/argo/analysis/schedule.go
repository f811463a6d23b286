package analysis

import (
	"time"

	"rollscope/model/argo"
)

// ErrorRetryInterval is how long Argo waits to measure again after a
// measurement errored, whatever the metric's interval.
const ErrorRetryInterval = 10 * time.Second

// Due are the metrics of run to measure at now, as Argo's
// generateMetricTasks picks them: none once the run is terminating; a
// metric's first measurement once its initialDelay has passed since the
// run started; the next once its interval (ErrorRetryInterval after an
// error) has passed since the last finished; none past its count. (Argo
// wants now strictly after; its requeue fires a moment late, a virtual
// clock wakes on the instant.)
func Due(run *argo.AnalysisRun, now time.Time) []argo.Metric {
	if Terminating(run) {
		return nil
	}
	var due []argo.Metric
	for _, m := range run.Spec.Metrics {
		if at, ok := nextMeasurement(run, m); ok && !now.Before(at) {
			due = append(due, m)
		}
	}
	return due
}

// Next is when run next needs looking at, as Argo's
// calculateNextReconcileTime says: the earliest of its metrics' next
// measurements; ok false when none is due again.
func Next(run *argo.AnalysisRun) (time.Time, bool) {
	var next time.Time
	found := false
	for _, m := range run.Spec.Metrics {
		at, ok := nextMeasurement(run, m)
		if !ok || at.IsZero() {
			continue
		}
		if !found || at.Before(next) {
			next, found = at, true
		}
	}
	return next, found
}

// nextMeasurement is when m is next measured in run: the zero time for
// now (a first measurement without initialDelay), ok false when never
// again (completed, count reached, or no interval to repeat at).
func nextMeasurement(run *argo.AnalysisRun, m argo.Metric) (time.Time, bool) {
	r := Result(run, m.Name)
	if r != nil && r.Phase.Completed() {
		return time.Time{}, false
	}
	if r == nil || len(r.Measurements) == 0 {
		if m.InitialDelay == "" {
			return time.Time{}, true
		}
		d, err := time.ParseDuration(m.InitialDelay)
		if err != nil || run.Status.StartedAt == nil {
			return time.Time{}, false
		}
		return run.Status.StartedAt.Add(d), true
	}
	if n, ok := EffectiveCount(m); ok && r.Count >= n {
		return time.Time{}, false
	}
	last := r.Measurements[len(r.Measurements)-1]
	if last.FinishedAt == nil {
		return time.Time{}, false
	}
	interval := ErrorRetryInterval
	if last.Phase != argo.AnalysisPhaseError {
		if m.Interval == "" {
			return time.Time{}, false
		}
		d, err := time.ParseDuration(m.Interval)
		if err != nil {
			return time.Time{}, false
		}
		interval = d
	}
	return last.FinishedAt.Add(interval), true
}
