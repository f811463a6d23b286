package embedded_test

import (
	"strings"
	"testing"

	"rollscope/engine/sim"
	"rollscope/model"
	"rollscope/model/argo"
)

// gatedCanary is a 10-replica web with an AnalysisTemplate error-rate
// (limits and conditions as given) measured every 5s, the series values,
// and a canary at 30s of 2 pods then 50%, each held 20s, judged by it.
func gatedCanary(t *testing.T, metric, values, onFailure string) *canaryRun {
	t.Helper()
	sc := parse(t, "gated.yaml", canaryDeployment(10, "25%", "0", 0)+`  ---
  apiVersion: argoproj.io/v1alpha1
  kind: AnalysisTemplate
  metadata: {name: error-rate}
  spec:
    metrics:
      - name: error-rate
        interval: 5s
        count: 3
`+metric+`
        provider:
          prometheus:
            address: http://prometheus.monitoring:9090
            query: sum(rate(http_errors{pod_template_hash="{{args.canary-hash}}"}[1m]))
metrics:
  - {metric: error-rate, `+values+`}
actions:
  - {at: 30s, canary: {target: deployment/web, container: app, image: "example.com/app:v2", steps: [2, "50%"], hold: 20s, onFailure: `+onFailure+`, analysis: [error-rate]}}
`)
	r := runCanary(t, sc)
	r.requireNoViolations()
	return r
}

// A canary whose gate passes every measurement of every step finishes on
// its own: each step ends once its hold has passed and its analysis has
// succeeded, and the strategy comes back as it was.
func TestGatedCanaryPassesOnHealthyMetrics(t *testing.T) {
	r := gatedCanary(t, "        successCondition: result < 0.05", `byImage: {"example.com/app:v2": 0.01}`, "abort")
	r.requireHeldExactly(2)
	rr := &run{t: t, cluster: r.cluster}
	rr.requireComplete("web")
	d := rr.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v2" {
		t.Errorf("the healthy canary ended on %s, want example.com/app:v2", img)
	}
	r.requireRestored(d)
	all := strings.Join(r.events, "\n")
	for _, want := range []string{"CanaryMetricSuccessful: Canary step 1 of 3: Metric 'error-rate' Completed. Result: Successful",
		"CanaryAnalysisRunSuccessful: Canary step 2 of 3", "CanaryFinished"} {
		if !strings.Contains(all, want) {
			t.Errorf("no event %q among:\n%s", want, all)
		}
	}
}

// A canary whose error rate climbs fails its step on the measurement that
// crosses failureLimit, as Argo's AnalysisRun does, and holds there with
// the metric, its values and the limit named — exactly its pods, no more.
func TestGatedCanaryFailsItsStepOnTheMetric(t *testing.T) {
	r := gatedCanary(t, "        successCondition: result < 0.05\n        failureLimit: 1", "values: [0.01, 0.07, 0.12]", "pause")
	if r.end != sim.EndQuiescent {
		t.Errorf("the run ended %s, want quiescent (held and failed)", r.end)
	}
	d := (&run{t: t, cluster: r.cluster}).deployment("web")
	c, ok, err := model.ReadCanary(d)
	if err != nil || !ok {
		t.Fatalf("no canary left holding: %v %v", ok, err)
	}
	want := "analysis error-rate 0.01, 0.07, 0.12 against success: result < 0.05 (failed 2 > limit 1 of 3 measured)"
	if c.State.Step != 1 || c.State.Phase != model.CanaryFailed || c.State.Gate != want {
		t.Errorf("canary state %+v\nwant step 1 failed with gate %q", c.State, want)
	}
	if c.State.Analysis == nil || c.State.Analysis.Phase != argo.AnalysisPhaseFailed || len(c.State.Analysis.MetricResults) != 1 || c.State.Analysis.MetricResults[0].Count != 3 {
		t.Errorf("the step's analysis is %+v, want Failed after 3 measurements", c.State.Analysis)
	}
	r.requireHeldExactly(1)
	if !model.CanaryHeld(d) {
		t.Error("the failed canary let go of its hold")
	}
}

// With onFailure abort, the failed metric takes the Deployment back to
// its stable revision, as Argo aborts a Rollout whose step analysis fails.
func TestGatedCanaryFailedMetricAborts(t *testing.T) {
	r := gatedCanary(t, "        successCondition: result < 0.05", "values: [0.2]", "abort")
	rr := &run{t: t, cluster: r.cluster}
	rr.requireComplete("web")
	d := rr.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v1" {
		t.Errorf("after the failed metric the template runs %s, want the stable example.com/app:v1", img)
	}
	r.requireRestored(d)
	if all := strings.Join(r.events, "\n"); !strings.Contains(all, "failed its gate: analysis error-rate 0.2 against success: result < 0.05 (failed 1 > limit 0 of 1 measured) — aborting") {
		t.Errorf("the abort does not name the metric:\n%s", all)
	}
}

// An inconclusive analysis holds the step for a human whatever onFailure
// says: Argo pauses a Rollout on one rather than aborting it.
func TestGatedCanaryInconclusiveHoldsEvenWithAbort(t *testing.T) {
	r := gatedCanary(t, "        successCondition: result < 0.02\n        failureCondition: result > 0.1", "values: [0.05]", "abort")
	d := (&run{t: t, cluster: r.cluster}).deployment("web")
	c, ok, _ := model.ReadCanary(d)
	if !ok || c.State.Phase != model.CanaryInconclusive || c.State.Step != 1 {
		t.Fatalf("canary %+v, want held inconclusive at step 1", c.State)
	}
	if !strings.HasPrefix(c.State.Gate, "analysis inconclusive — error-rate 0.05") {
		t.Errorf("the hold's evidence %q does not name the metric and its value", c.State.Gate)
	}
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v2" {
		t.Errorf("an inconclusive analysis aborted the canary (template %s)", img)
	}
}

// A metrics source that errors is never a pass: the errors count up to
// consecutiveErrorLimit, then the step holds for a human — even with
// onFailure abort, since a source that is down says nothing of the canary —
// with the provider's message.
func TestGatedCanaryErroringSourceHoldsTheStep(t *testing.T) {
	r := gatedCanary(t, "        successCondition: result < 0.05\n        consecutiveErrorLimit: 2", `values: [{error: "dial tcp 10.0.0.9:9090: connect: connection refused"}]`, "abort")
	d := (&run{t: t, cluster: r.cluster}).deployment("web")
	c, ok, _ := model.ReadCanary(d)
	want := "metrics source down — error-rate: 3 errors in a row > limit 2: dial tcp 10.0.0.9:9090: connect: connection refused"
	if !ok || c.State.Phase != model.CanaryInconclusive || c.State.Gate != want {
		t.Errorf("canary %+v\nwant held inconclusive with %q", c.State, want)
	}
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v2" {
		t.Errorf("a metrics source that is down aborted the canary (template %s)", img)
	}
}
