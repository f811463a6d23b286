package main

import (
	"strings"
	"testing"
)

// The argo-analysis built-in does what it says: at 20% the step's
// AnalysisRun measures v2's climbing error rate every 5s, its third and
// fourth measurements fail, and the update is aborted with Argo's message
// (simulate ends there: the Rollout has failed).
func TestArgoAnalysisBuiltinAbortsOnTheFailedMeasurements(t *testing.T) {
	r := rollscope(t, "simulate", "-f", "argo-analysis", "--format", "table", "--exit-status")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the update did not finish): %s", r.code, r.stderr)
	}
	order := []string{
		"Rollout step 1/4 completed (setWeight: 20)",
		"Step Analysis Run 'checkout-5c8fd9fbd8-2-1' Status New: 'Running'",
		"40.000", // two measurements over 5% at 35s and 40s: failed 2 > failureLimit 1
		"Step Analysis Run 'checkout-5c8fd9fbd8-2-1' Status New: 'Failed' Previous: 'Running'",
		`RolloutAborted: Rollout aborted update to revision 2: Step-based analysis phase error/failed: Metric "error-rate" assessed Failed due to failed (2) > failureLimit (1)`,
		"Degraded step 1/4",
		"quiescent",
	}
	at := 0
	for _, want := range order {
		i := strings.Index(r.stdout[at:], want)
		if i < 0 {
			t.Fatalf("after byte %d the trace does not say %q:\n%s", at, want, r.stdout)
		}
		at += i
	}
	// The run's own line shows each measurement as it is taken, and the
	// verdict.
	for _, want := range []string{
		"Running; error-rate Running: 3 measured (2 successful, 1 failed, 0 inconclusive, 0 error), last Failed 0.07",
		`Failed; error-rate Failed: 4 measured (2 successful, 2 failed, 0 inconclusive, 0 error), last Failed 0.12: Metric "error-rate" assessed Failed`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the trace has no AnalysisRun line %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Rollout step 2/4 completed") {
		t.Error("the failed analysis step was passed")
	}
}
