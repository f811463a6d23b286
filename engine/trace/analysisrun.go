package trace

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/argo"
)

// An Argo AnalysisRun's lines: one per metric, written when its counts,
// its latest measurement or the run's phase change, so that a trace shows
// each measurement as the controller takes it and the verdict it reaches.

const kindAnalysisRun = "analysisrun"

// analysisRunKey is one metric of one run ("" before any measurement).
type analysisRunKey struct {
	run    objectKey
	metric string
}

type analysisRunLine struct {
	owner                                            string // rollout/NAME
	phase, message                                   string // the run's
	metricPhase                                      string
	count, successful, failed, inconclusive, errored int32
	measurement, value, why                          string // the latest measurement's phase, value and message
}

func projectAnalysisRun(ar *argo.AnalysisRun) map[string]analysisRunLine {
	base := analysisRunLine{phase: string(ar.Status.Phase), message: ar.Status.Message}
	if ref := metav1.GetControllerOfNoCopy(ar); ref != nil {
		base.owner = lowerKind(ref.Kind) + "/" + ref.Name
	}
	out := make(map[string]analysisRunLine, len(ar.Status.MetricResults))
	for _, r := range ar.Status.MetricResults {
		l := base
		l.metricPhase = string(r.Phase)
		l.count, l.successful, l.failed, l.inconclusive, l.errored = r.Count, r.Successful, r.Failed, r.Inconclusive, r.Error
		if n := len(r.Measurements); n > 0 {
			m := r.Measurements[n-1]
			l.measurement, l.value, l.why = string(m.Phase), m.Value, m.Message
		}
		out[r.Name] = l
	}
	if len(out) == 0 {
		out[""] = base
	}
	return out
}

// observeAnalysisRun writes the lines of the run's metrics that changed,
// or its deletion.
func (w *Writer) observeAnalysisRun(t time.Duration, ar *argo.AnalysisRun, deleted bool) {
	key := objectKey{ar.Namespace, ar.Name}
	if deleted {
		for k := range w.analysisRuns {
			if k.run == key {
				delete(w.analysisRuns, k)
			}
		}
		w.writeDeleted(t, kindAnalysisRun, key)
		return
	}
	lines := projectAnalysisRun(ar)
	for _, m := range ar.Status.MetricResults { // in the run's order
		w.analysisRunLine(t, analysisRunKey{key, m.Name}, lines[m.Name])
	}
	if l, ok := lines[""]; ok {
		w.analysisRunLine(t, analysisRunKey{key, ""}, l)
	}
}

func (w *Writer) analysisRunLine(t time.Duration, key analysisRunKey, l analysisRunLine) {
	if old, ok := w.analysisRuns[key]; ok && old == l {
		return
	}
	if w.analysisRuns == nil {
		w.analysisRuns = map[analysisRunKey]analysisRunLine{}
	}
	w.analysisRuns[key] = l
	if w.table {
		w.tableAnalysisRun(t, key, l)
		return
	}
	w.jsonAnalysisRun(t, key, l)
}

func (w *Writer) jsonAnalysisRun(t time.Duration, key analysisRunKey, l analysisRunLine) {
	b := w.jsonStart(t, kindAnalysisRun)
	b = appendStringField(b, "namespace", key.run.namespace)
	b = appendStringField(b, "name", key.run.name)
	b = appendStringField(b, "owner", l.owner)
	b = appendStringField(b, "phase", l.phase)
	b = appendStringField(b, "message", l.message)
	if key.metric != "" {
		b = appendStringField(b, "metric", key.metric)
		b = appendStringField(b, "metricPhase", l.metricPhase)
		b = appendIntField(b, "count", int64(l.count))
		b = appendIntField(b, "successful", int64(l.successful))
		b = appendIntField(b, "failed", int64(l.failed))
		b = appendIntField(b, "inconclusive", int64(l.inconclusive))
		b = appendIntField(b, "error", int64(l.errored))
		b = appendStringField(b, "measurement", l.measurement)
		b = appendStringField(b, "value", l.value)
		b = appendStringField(b, "measurementMessage", l.why)
	}
	w.jsonFinish(b)
}

// tableAnalysisRun says in STATUS the run's phase, then the metric's
// counts and latest measurement.
func (w *Writer) tableAnalysisRun(t time.Duration, key analysisRunKey, l analysisRunLine) {
	b := noCounts(w.tableObject(t, rowWorkload, kindAnalysisRun, key.run))
	b = appendText(b, l.phase)
	if key.metric != "" {
		b = appendText(b, fmt.Sprintf("; %s %s: %d measured (%d successful, %d failed, %d inconclusive, %d error), last %s %s",
			key.metric, l.metricPhase, l.count+l.errored, l.successful, l.failed, l.inconclusive, l.errored, l.measurement, l.value))
		if l.why != "" {
			b = appendText(b, " ("+l.why+")")
		}
	}
	if l.message != "" {
		b = appendText(b, ": "+l.message)
	}
	w.tableFinish(b)
}
