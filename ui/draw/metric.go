package draw

import (
	"strings"

	"rollscope/model/argo"
	"rollscope/model/cluster"
	"rollscope/themes"
)

// VerdictPaint is the paint of an analysis verdict: green succeeded, red
// failed or errored, amber otherwise (running, inconclusive).
func VerdictPaint(st themes.Styles, p argo.AnalysisPhase) func(...string) string {
	switch p {
	case argo.AnalysisPhaseSuccessful:
		return st.OK.Render
	case argo.AnalysisPhaseFailed, argo.AnalysisPhaseError:
		return st.Bad.Render
	}
	return st.Warn.Render
}

// verdictMark is a verdict's glyph.
func verdictMark(p argo.AnalysisPhase) string {
	switch p {
	case argo.AnalysisPhaseSuccessful:
		return "✓"
	case argo.AnalysisPhaseFailed, argo.AnalysisPhaseError:
		return "✗"
	case argo.AnalysisPhaseInconclusive:
		return "?"
	}
	return "…"
}

// MetricLine is one metric of an analysis in w cells: its verdict, its
// measurements as a chart in their verdicts' colours (the condition's
// threshold after the rule), its last values, its condition and the limit
// it crossed. Narrow, the chart and the older values go first, then the
// condition: the last value and the verdict stay.
func MetricLine(st themes.Styles, m cluster.MetricView, w int) string {
	paint := VerdictPaint(st, m.Phase)
	parts := []Part{{Text: "  " + paint(verdictMark(m.Phase)) + " " + st.Text.Render(m.Name)}}
	if len(m.Values) > 0 {
		sparks := make([]Spark, len(m.Values))
		for i, v := range m.Values {
			sparks[i] = Spark{Value: v, Paint: VerdictPaint(st, m.Phases[i])}
		}
		limit, has := Threshold(m.SuccessCondition)
		if !has {
			limit, has = Threshold(m.FailureCondition)
		}
		parts = append(parts, Part{Text: " " + Chart(sparks, limit, has, st.Muted.Render), Drop: 3})
	}
	if n := len(m.Last); n > 1 {
		parts = append(parts, Part{Text: " " + st.Text.Render(strings.Join(m.Last[:n-1], ", ")+","), Drop: 2})
	}
	if n := len(m.Last); n > 0 {
		parts = append(parts, Part{Text: " " + st.Text.Render(m.Last[n-1])})
	}
	if c := m.Condition(); c != "" {
		parts = append(parts, Part{Text: st.Muted.Render(" · " + c), Drop: 1})
	}
	parts = append(parts, Part{Text: " · " + paint(m.Verdict())})
	return Parts(parts, w)
}
