package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const canaryGatesPath = "../../engine/scenario/builtin/canary-gates.yaml"

// canaryGatesVariant writes canary-gates with each old → new replacement
// made, and onFailure abort — so a hold it shows is the gates' own, never
// onFailure's — and returns its path.
func canaryGatesVariant(t *testing.T, oldNew ...string) string {
	t.Helper()
	b, err := os.ReadFile(canaryGatesPath)
	if err != nil {
		t.Fatal(err)
	}
	sc := strings.Replace(string(b), "analysis: [error-rate]}", "analysis: [error-rate], onFailure: abort}", 1)
	for i := 0; i+1 < len(oldNew); i += 2 {
		if !strings.Contains(sc, oldNew[i]) {
			t.Fatalf("canary-gates has no %q", oldNew[i])
		}
		sc = strings.Replace(sc, oldNew[i], oldNew[i+1], 1)
	}
	path := filepath.Join(t.TempDir(), "canary-gates.yaml")
	if err := os.WriteFile(path, []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// canary-gates in the console: the step fails on its error rate, and the
// header says so with the metric's values against its condition and its
// chart — the last two bars over the threshold's — and the timeline
// carries the measurement that decided it.
func TestConsoleCanaryFailsOnItsMetricWithTheChart(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 200, 45, "--scenario", "canary-gates", "--speed", "4")
	c.waitFor("  … error-rate") // measuring: the gate is drawn before its verdict
	s := c.waitFor("held: gate failed — analysis error-rate [0.03], [0.07], [0.12] against success: result[0] < 0.05")
	wantAll(t, s, "the failed metric gate",
		"✗ error-rate ▂▃▅█┊▄ [0.03], [0.07], [0.12] · success: result[0] < 0.05 · failed 2 > limit 1 → Failed",
		"canary step 1/3 · 2/10 pods on rev 2")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// An inconclusive analysis holds the step for the operator, whatever
// onFailure says, and P promotes past it to the next step.
func TestConsoleCanaryInconclusiveHoldPromotedPast(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	path := canaryGatesVariant(t,
		"successCondition: result[0] < 0.05", "successCondition: result[0] < 0.02\n        failureCondition: result[0] > 0.1",
		"values: [[0.01], [0.03], [0.07], [0.12]]", "values: [[0.01], [0.04], [0.04], [0.04]]")
	c := startConsole(t, 200, 45, "--scenario", path, "--speed", "4")
	s := c.waitFor("held: analysis inconclusive — error-rate")
	wantAll(t, s, "the inconclusive hold", "? error-rate ▃█┊▅ [0.01], [0.04]", "inconclusive 1 > limit 0 → Inconclusive")
	c.keys("P")
	c.waitFor("the step is held: analysis inconclusive — error-rate")
	c.keys("y")
	c.waitFor("canary step 2/3 · ")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// Prometheus going down mid-step: its errors count up to
// consecutiveErrorLimit, then the step is held — never passed, never
// aborted — and the header says the metrics source is down, with the
// provider's own words.
func TestConsoleCanaryHeldWhenTheMetricsSourceIsDown(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	down := `{error: 'Post "http://prometheus.monitoring:9090/api/v1/query": dial tcp 10.0.0.9:9090: connect: connection refused'}`
	path := canaryGatesVariant(t,
		"values: [[0.01], [0.03], [0.07], [0.12]]", "values: [[0.01], "+down+"]",
		"failureLimit: 1", "failureLimit: 1\n        consecutiveErrorLimit: 1")
	c := startConsole(t, 200, 45, "--scenario", path, "--speed", "4")
	s := c.waitFor("held: metrics source down — ")
	wantAll(t, s, "the hold on a source that is down", `error-rate: 2 errors in a row > limit 1: Post "http://prometheus.monitoring:9090/api/v1/query": dial tcp`,
		"✗ error-rate ▂××┊█ [0.01], (error), (error) · success: result[0] < 0.05 · 2 errors in a row > limit 1 → Error", "canary step 1/3 · 2/10 pods on rev 2")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// --plain on a gated canary prints each measurement as it comes and, once
// the metric fails the step with nothing left in the scenario to promote
// it, exits 1 naming the metric and its values — never waiting for ever.
func TestPlainGatedCanaryPrintsMeasurementsAndExits1OnTheMetric(t *testing.T) {
	r := rollscope(t, "--scenario", "canary-gates", "--plain", "--speed", "50")
	if r.code != 1 || !strings.Contains(r.stderr, `deployment "checkout": canary step 1/3 held: gate failed — analysis error-rate [0.03], [0.07], [0.12] against success: result[0] < 0.05`) {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"error-rate [0.01] Running 1 of 4", "error-rate [0.07] Running 3 of 4"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in:\n%s", want, r.stdout)
		}
	}
}
