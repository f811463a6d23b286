package main

import (
	"strings"
	"testing"
)

// The argo-analysis built-in does what it says: at 20% the step's
// AnalysisRun measures v2's climbing error rate every 5s, its third and
// fourth measurements fail, and the update is aborted with Argo's message;
// simulate ends only once the controller has rolled back — v1 at 10 again
// and the canary's 2 pods gone — as an operator watching would see it.
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
		"Scaled up ReplicaSet checkout-67d698b9f (revision 1) from 8 to 10",
		"Scaled down ReplicaSet checkout-5c8fd9fbd8 (revision 2) from 2 to 0",
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

// The embedded Rollout's page shows its step's AnalysisRun as it measures
// — each value against the success condition, the counts against the
// limits — and, once it fails, the limit crossed, the abort's message and
// the rollback that follows: the canary at 0, stable at 10 of 10.
func TestTheEmbeddedRolloutsPageShowsItsAnalysis(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 45, "--scenario", "argo-analysis", "--speed", "4")
	s := c.waitFor("analysis checkout-5c8fd9fbd8-2-1 · step 2 Running")
	wantAll(t, s, "the running analysis", "▸  2 analysis error-rate", "success: result < 0.05")
	// The run fails first and the controller aborts on its next pass, as
	// Argo's does: a screen between the two is true, so the test waits for
	// the abort and then asks that the failed run is still explained.
	s = c.waitFor(`RolloutAborted: Rollout aborted update to revision 2: Step-based analysis phase error/failed`)
	wantAll(t, s, "the failed analysis",
		"✗ error-rate ▂▃▅█┊▄ 0.03, 0.07, 0.12", // the chart: the last two over the threshold's ▄
		"failed 2 > limit 1 → Failed",
		"failed 2 of limit 1")
	c.WaitUntil("the canary scaled down", func(s string) bool {
		return strings.Contains(s, "canary           rev 2    0/0") && strings.Contains(s, "stable           rev 1    10/10")
	})
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
