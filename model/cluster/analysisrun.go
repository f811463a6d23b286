package cluster

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
)

// A Rollout's AnalysisRuns: each kept by its Rollout's UID, and viewed as
// the analysis pane and the fleet's "analysis failed" line read it.

// AnalysisRunView is one AnalysisRun of a Rollout: "why did analysis fail".
type AnalysisRunView struct {
	Name    string
	Phase   argo.AnalysisPhase
	Message string
	Started time.Time
	// For is what Argo's controller started it for: "step 4",
	// "background", "pre-promotion", "post-promotion" ("" unknown);
	// Current whether the Rollout's status names it as its run now.
	For     string
	Current bool
	Metrics []MetricView
}

// MetricView is one metric's last measurements against its conditions.
type MetricView struct {
	Name                               string
	Phase                              argo.AnalysisPhase
	SuccessCondition, FailureCondition string
	Last                               []string // the last measurements' values, oldest first
	// Values are every kept measurement's value as a number (a vector's
	// first sample; NaN for an error or a value that is no number), oldest
	// first: the chart.
	Values []float64
	// Phases are each value's verdict, as Values.
	Phases                                          []argo.AnalysisPhase
	Message                                         string
	Count, Successful, Failed, Inconclusive, Errors int32
	// ConsecutiveErrors is the errors in a row; Limits the metric's, and
	// Crossed the one it went past as Argo's controller judges it ("failed
	// 1 > limit 0 → Failed"), "" while within them.
	ConsecutiveErrors int32
	Limits            argo.Limits
	Crossed           string
	// Want is how many measurements the metric takes; 0 when it has no end.
	Want int32
}

// Condition is what the metric's values are measured against: "success:
// result < 0.05", its failure condition too when it has one.
func (m MetricView) Condition() string {
	var parts []string
	if m.SuccessCondition != "" {
		parts = append(parts, "success: "+m.SuccessCondition)
	}
	if m.FailureCondition != "" {
		parts = append(parts, "failure: "+m.FailureCondition)
	}
	return strings.Join(parts, " · ")
}

// Counts are the metric's counts against its limits: "failed 1 of limit 0
// · inconclusive 0 of 0 · errors 0 (0 in a row of 4) · successful 1 of 2
// measured".
func (m MetricView) Counts() string {
	failed := fmt.Sprintf("failed %d of limit %d", m.Failed, m.Limits.Failure)
	if m.Limits.Failure < 0 {
		failed = fmt.Sprintf("failed %d (no limit)", m.Failed)
	}
	return fmt.Sprintf("%s · inconclusive %d of %d · errors %d (%d in a row of %d) · successful %d of %d measured",
		failed, m.Inconclusive, m.Limits.Inconclusive, m.Errors, m.ConsecutiveErrors, m.Limits.ConsecutiveError, m.Successful, m.Count)
}

// measuredOf is how many of its measurements the metric has taken: "2
// of 4", or "2 measured" without an end.
func (m MetricView) measuredOf() string {
	if m.Want > 0 {
		return fmt.Sprintf("%d of %d", m.Count, m.Want)
	}
	return strconv.Itoa(int(m.Count)) + " measured"
}

// Verdict is the metric's phase and why: the limit it crossed, or its
// phase alone ("Running").
func (m MetricView) Verdict() string {
	if m.Crossed != "" {
		return m.Crossed
	}
	return orNone(string(m.Phase))
}

// lastMeasurements is how many measurements a metric shows.
const lastMeasurements = 3

func analysisRunView(run *argo.AnalysisRun) AnalysisRunView {
	v := AnalysisRunView{Name: run.Name, Phase: run.Status.Phase, Message: run.Status.Message}
	if run.Status.StartedAt != nil {
		v.Started = run.Status.StartedAt.Time
	} else {
		v.Started = run.CreationTimestamp.Time
	}
	switch run.Labels[argo.RolloutTypeLabel] {
	case argo.RunForStep:
		if i, err := strconv.Atoi(run.Labels[argo.StepIndexLabel]); err == nil {
			v.For = "step " + strconv.Itoa(i+1)
		} else {
			v.For = "step"
		}
	case argo.RunForBackground:
		v.For = "background"
	case argo.RunForPrePromotion:
		v.For = "pre-promotion"
	case argo.RunForPostPromotion:
		v.For = "post-promotion"
	}
	conds := map[string]argo.Metric{}
	for _, m := range run.Spec.Metrics {
		conds[m.Name] = m
	}
	for _, r := range run.Status.MetricResults {
		limits := argo.LimitsOf(conds[r.Name])
		_, crossed := limits.Crossed(r)
		m := MetricView{Name: r.Name, Phase: r.Phase, Message: r.Message, Count: r.Count, Successful: r.Successful,
			Failed: r.Failed, Inconclusive: r.Inconclusive, Errors: r.Error, ConsecutiveErrors: r.ConsecutiveError,
			Limits: limits, Crossed: crossed,
			SuccessCondition: conds[r.Name].SuccessCondition, FailureCondition: conds[r.Name].FailureCondition}
		m.Want, _ = analysis.EffectiveCount(conds[r.Name])
		for _, ms := range r.Measurements {
			m.Values, m.Phases = append(m.Values, measuredNumber(ms)), append(m.Phases, ms.Phase)
		}
		for _, ms := range r.Measurements[max(len(r.Measurements)-lastMeasurements, 0):] {
			val := ms.Value
			if val == "" {
				val = "(" + strings.ToLower(string(ms.Phase)) + ")"
			}
			m.Last = append(m.Last, val)
		}
		v.Metrics = append(v.Metrics, m)
	}
	return v
}

// failedMetric is the line naming the metric that failed run, with its
// last value and its condition: the answer to "why did analysis fail".
func failedMetric(run AnalysisRunView) string {
	for _, m := range run.Metrics {
		if m.Phase != argo.AnalysisPhaseFailed && m.Phase != argo.AnalysisPhaseError {
			continue
		}
		last := "no measurement"
		if len(m.Last) > 0 {
			last = m.Last[len(m.Last)-1]
		}
		s := fmt.Sprintf("metric %s = %s", m.Name, last)
		switch {
		case m.FailureCondition != "":
			s += " (failure: " + m.FailureCondition + ")"
		case m.SuccessCondition != "":
			s += " (success: " + m.SuccessCondition + ")"
		}
		return s + fmt.Sprintf(" · %d failed, %d errors of %d", m.Failed, m.Errors, m.Count)
	}
	return "analysis " + run.Name + " " + strings.ToLower(string(run.Phase)) + ": " + run.Message
}

// putAnalysisRun keeps run and marks its Rollout's row.
func (c *Cluster) putAnalysisRun(run *argo.AnalysisRun) bool {
	return c.fileAnalysisRun(objectKey(run.Namespace, run.Name), run)
}

func (c *Cluster) deleteAnalysisRun(key string) bool { return c.fileAnalysisRun(key, nil) }

// fileAnalysisRun keeps run at key, or forgets what is there when run is
// nil, and marks the rows of the Rollouts that own it before and after.
func (c *Cluster) fileAnalysisRun(key string, run *argo.AnalysisRun) bool {
	w := c.workloads
	old, had := w.analysisRuns[key]
	if run == nil && !had || run != nil && had && sameResourceVersion(old, run) {
		return false
	}
	oldOwner, hadOwner := controllerUIDOf(old)
	owner, hasOwner := controllerUIDOf(run)
	w.analysisRunsByOwner.move(oldOwner, hadOwner, owner, hasOwner, key)
	if run == nil {
		delete(w.analysisRuns, key)
	} else {
		w.analysisRuns[key] = run
	}
	if hadOwner {
		c.markOwner(oldOwner)
	}
	if hasOwner {
		c.markOwner(owner)
	}
	return true
}

func controllerUIDOf(run *argo.AnalysisRun) (types.UID, bool) {
	if run == nil {
		return "", false
	}
	return controllerUID(run)
}

// measuredNumber is a measurement's value as one number: a scalar, or a
// vector's first sample, as a query selecting the canary's pods usually
// returns one; NaN for an error or anything else.
func measuredNumber(ms argo.Measurement) float64 {
	if ms.Phase == argo.AnalysisPhaseError || ms.Value == "" {
		return math.NaN()
	}
	var v any
	if json.Unmarshal([]byte(ms.Value), &v) != nil {
		return math.NaN()
	}
	if list, ok := v.([]any); ok && len(list) > 0 {
		v = list[0]
	}
	if f, ok := v.(float64); ok {
		return f
	}
	return math.NaN()
}
