package model

import (
	"fmt"
	"strings"

	"rollscope/model/argo"
	"rollscope/model/argo/analysis"
)

// CanaryGateArgs are the {{args.NAME}} a guided canary's metric gate may
// use in its query, named as an Argo Rollout's analysis usually names
// them: the namespace, the deployment, and the pod-template hashes of the
// canary's pods and of the stable ones, so that a query can select the
// canary's pods by their pod-template-hash label
// (error_rate{namespace="{{args.namespace}}",pod_template_hash="{{args.canary-hash}}"}).
func CanaryGateArgs(namespace, deployment, canaryHash, stableHash string) []argo.AnalysisRunArgument {
	return []argo.AnalysisRunArgument{
		{Name: "namespace", Value: namespace},
		{Name: "deployment", Value: deployment},
		{Name: "canary-hash", Value: canaryHash},
		{Name: "stable-hash", Value: stableHash},
	}
}

// Gated reports whether c's current step is judged by metric gates: the
// plan has some and the step is not the last (at 100% the Deployment's own
// rollout finishes, as Argo's analysis ends with the last step).
func (c Canary) Gated() bool {
	return len(c.Plan.Gates) > 0 && c.State.Step < c.Plan.Last()
}

// Measuring says whether the step's metric gates are still to reach a
// verdict by themselves: the step is gated, its analysis has none yet, and
// every gate takes a bounded number of measurements. A step held for a
// promote is not waiting on the operator until then.
func (c Canary) Measuring() bool {
	if !c.Gated() {
		return false
	}
	run := &argo.AnalysisRun{Spec: argo.AnalysisRunSpec{Metrics: c.Plan.Gates}}
	if c.State.Analysis != nil {
		run.Status = *c.State.Analysis
	}
	return analysis.Concludes(run)
}

// GateTemplate is the template gate i of p came from ("" when written
// out).
func (p CanaryPlan) GateTemplate(i int) string {
	if i < len(p.GateTemplates) {
		return p.GateTemplates[i]
	}
	return ""
}

// GateVerdict is the step's metric gates' verdict so far: Argo's phase of
// the step's analysis ("" before its first measurement, or without gates).
func (c Canary) GateVerdict() argo.AnalysisPhase {
	if !c.Gated() || c.State.Analysis == nil {
		return ""
	}
	return c.State.Analysis.Phase
}

// GateEvidence is the line that says why the step's analysis ended as it
// did: the deciding metric's last values against its condition, and its
// count against the limit it crossed — "error-rate 0.03, 0.07, 0.12 against
// result < 0.05: 2 failed > limit 1" — or, for errors, the provider's last
// message ("error-rate: 5 errors in a row > limit 4: connection refused").
func GateEvidence(gates []argo.Metric, st *argo.AnalysisRunStatus) string {
	if st == nil {
		return ""
	}
	byName := map[string]argo.Metric{}
	for _, m := range gates {
		byName[m.Name] = m
	}
	for _, r := range st.MetricResults {
		if r.Phase != st.Phase || !r.Phase.Completed() || r.Phase == argo.AnalysisPhaseSuccessful {
			continue
		}
		return metricEvidence(byName[r.Name], r)
	}
	return st.Message
}

// metricEvidence is one metric's evidence line, as GateEvidence words it.
func metricEvidence(m argo.Metric, r argo.MetricResult) string {
	_, crossed := argo.LimitsOf(m).Crossed(r)
	crossed, _, _ = strings.Cut(crossed, " →")
	if r.Phase == argo.AnalysisPhaseError || (len(r.Measurements) > 0 && r.Measurements[len(r.Measurements)-1].Phase == argo.AnalysisPhaseError) {
		msg := ""
		if n := len(r.Measurements); n > 0 {
			msg = ": " + r.Measurements[n-1].Message
		}
		return fmt.Sprintf("%s: %s%s", r.Name, orText(crossed, Plural(r.ConsecutiveError, "error")+" in a row"), msg)
	}
	var values []string
	for _, ms := range r.Measurements[max(len(r.Measurements)-3, 0):] {
		if ms.Phase != argo.AnalysisPhaseError {
			values = append(values, ms.Value)
		}
	}
	cond := "success: " + m.SuccessCondition
	if m.FailureCondition != "" {
		cond = "failure: " + m.FailureCondition
		if m.SuccessCondition != "" {
			cond = "success: " + m.SuccessCondition + ", failure: " + m.FailureCondition
		}
	}
	return fmt.Sprintf("%s %s against %s (%s of %d measured)", r.Name, strings.Join(values, ", "), cond, orText(crossed, string(r.Phase)), r.Count)
}

func orText(s, instead string) string {
	if s == "" {
		return instead
	}
	return s
}

// GateHold is why an inconclusive step holds, as the header says it: the
// analysis was inconclusive, or the metrics source is down (Argo's Error
// verdict: consecutiveErrorLimit crossed) — never a pass.
func GateHold(gates []argo.Metric, st *argo.AnalysisRunStatus) string {
	why := GateEvidence(gates, st)
	if st != nil && st.Phase == argo.AnalysisPhaseError {
		return "metrics source down — " + why
	}
	return "analysis inconclusive — " + why
}
