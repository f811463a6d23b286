package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// planCanary drives the guided canary's dialog on the quiet canary (6
// replicas, maxSurge 1, maxUnavailable 0, minReadySeconds 5): v3 in steps
// of 1 pod and 50%, each held until promoted, and checks the confirmation's
// forecast and requests before sending it.
func (c *tmuxConsole) planCanary(image string) {
	c.t.Helper()
	c.askCanary(image, "steps: pods or % of 6 replicas", "1, 50%")
	c.keys("Enter") // no metric gates
	s := c.waitFor("will send, one update per step")
	wantAll(c.t, s, "the canary's confirmation",
		"step 1 (1): exactly 1 new + 6 old pods, all 6 old available; held until you promote",
		"step 2 (50%): exactly 3 new + 6 old pods",
		"peak 9 pods · lowest availability 6 of 6",
		`step 1: kubectl patch deployment/frontend -p '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}}`,
		"2147483646",
		"in the same update as kubectl set image deployment/frontend php-redis="+image,
	)
	c.keys("y")
	c.waitFor("started at step 1 of 3, 1 of 6 pods")
}

// askCanary answers K's questions on frontend up to the metric gates:
// image, then steps (the default when "") once the steps question shows
// stepsPrompt; each step held until promoted, held on a failed gate.
func (c *tmuxConsole) askCanary(image, stepsPrompt, steps string) {
	c.t.Helper()
	c.keys("K")
	c.waitFor("> gcr.io/google-samples/gb-frontend:v2")
	c.keys("C-u")
	c.keys("-l", image)
	c.keys("Enter")
	c.waitFor(stepsPrompt)
	if steps != "" {
		c.keys("C-u")
		c.keys("-l", steps)
	}
	c.keys("Enter")
	c.waitFor("hold at each step")
	c.keys("Enter") // pause, the default
	c.waitFor("on a failed gate")
	c.keys("Enter") // pause, the default
	c.waitFor("metric gates: AnalysisTemplates")
}

// The guided canary end to end in the console: plan, forecast, hold at
// exactly one new pod with the deployment's own settings shown, promote to
// 50%, abort back to the stable revision with the strategy restored.
func TestConsoleGuidedCanaryPlanHoldPromoteAbort(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 44, "--scenario", quietCanaryFile(t), "--speed", "30")
	c.waitFor("successfully rolled out")
	c.planCanary("gcr.io/google-samples/gb-frontend:v3")

	s := c.waitFor("canary step 1/3 · 1/6 pods on rev 2 · holding for promote (gates ok for")
	if strings.Contains(s, "2147483646") || !strings.Contains(s, "maxSurge 1  maxUnavailable 0  minReady 5s") {
		t.Errorf("while holding, the header should show the deployment's own settings, not the hold's:\n%s", s)
	}
	c.keys("P")
	s = c.waitFor("to step 2 of 3 (50%): exactly 3 new pods, every old pod kept")
	c.keys("y")
	c.waitFor("promoted to step 2")
	c.waitFor("canary step 2/3 · 3/6 pods on rev 2 · holding for promote (gates ok for")

	c.keys("x")
	s = c.waitFor("ends the guided canary")
	if !strings.Contains(s, "returns to revision 1") {
		t.Errorf("the abort does not name the stable revision:\n%s", s)
	}
	c.keys("y")
	// The toast names the revision gone back to and the number its
	// template now has, the one the header shows.
	c.waitFor("revision 2 aborted, back on revision 1's template, now revision 3")
	s = c.waitFor("successfully rolled out")
	if !strings.Contains(s, "rev 3") {
		t.Errorf("the header does not show the revision the toast named:\n%s", s)
	}
	if strings.Contains(s, "canary step") || !strings.Contains(s, "maxSurge 1  maxUnavailable 0  minReady 5s") {
		t.Errorf("after the abort the canary line is gone and the strategy is the deployment's own:\n%s", s)
	}
}

// Promote all takes the canary straight to 100%: the deployment's own
// strategy finishes the rollout and the canary line goes.
func TestConsoleGuidedCanaryPromoteAll(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 44, "--scenario", quietCanaryFile(t), "--speed", "30")
	c.waitFor("successfully rolled out")
	c.planCanary("gcr.io/google-samples/gb-frontend:v3")
	c.waitFor("canary step 1/3 · 1/6 pods on rev 2 · holding for promote")
	c.keys("A")
	c.waitFor("to 100%: puts back the deployment's own strategy")
	c.keys("y")
	c.waitFor("promoted to 100%")
	s := c.waitFor("successfully rolled out")
	if !strings.Contains(s, "rev 2") {
		t.Errorf("the canary did not finish on revision 2:\n%s", s)
	}
	c.WaitUntil("the canary line gone", func(screen string) bool { return !strings.Contains(screen, "canary step") })
}

// With --read-only the canary keys say why they do nothing.
func TestConsoleGuidedCanaryKeysOffWhenReadOnly(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 44, "--scenario", quietCanaryFile(t), "--speed", "30", "--read-only")
	c.waitFor("successfully rolled out")
	c.keys("K")
	c.waitFor("guided canary: read-only: rollscope was started with --read-only")
	c.keys("P")
	c.waitFor("promote canary (next step): read-only")
}

// A crash-looping canary with onFailure pause holds at step 1: the header
// and the timeline name the failed gate with its pod and reason.
func TestConsoleGuidedCanaryFailedGateIsNamed(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	quiet, err := os.ReadFile(quietCanaryPath)
	if err != nil {
		t.Fatal(err)
	}
	sc := strings.Replace(string(quiet), "images:\n", "images:\n  - {match: \"*:broken\", pull: 1s, start: 1s, crashLoop: true}\n", 1) + `actions:
  - {at: 20s, canary: {target: deployment/frontend, container: php-redis, image: "gcr.io/google-samples/gb-frontend:broken", steps: [1, "50%"], onFailure: pause}}
`
	path := filepath.Join(t.TempDir(), "crashing-canary.yaml")
	if err := os.WriteFile(path, []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startConsole(t, 220, 50, "--scenario", path, "--speed", "20")
	s := c.waitFor("canary step 1/3 · 1/6 pods on rev 2 · held: gate failed — pod frontend-")
	if !strings.Contains(s, "CrashLoopBackOff") && !strings.Contains(s, "restarted") {
		t.Errorf("the failed gate is not named with its reason:\n%s", s)
	}
	c.waitFor("CanaryGateFailed: Canary step 1 of 3 failed its gate")
}

// x while a guided canary holds its first step: the abort's forecast is
// made with the deployment's own minReadySeconds (5s), not the hold's, and
// says that no new pod is waited for rather than "0 waves".
func TestConsoleAbortForecastOfAHeldCanaryUsesTheDeploymentsOwnSettings(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 220, 50, "--scenario", quietCanaryFile(t), "--speed", "30")
	c.waitFor("successfully rolled out")
	c.planCanary("gcr.io/google-samples/gb-frontend:v3")
	c.waitFor("canary step 1/3 · 1/6 pods")
	c.keys("x")
	s := c.waitFor("forecast: 1 scaling step, no new pod to wait for")
	wantAll(t, s, "the abort's forecast", "+ minReadySeconds 5s")
	for _, hold := range []string{"596523h", "0 waves", "2147483646"} {
		if strings.Contains(s, hold) {
			t.Errorf("the abort's forecast of a held canary says %q:\n%s", hold, s)
		}
	}
	c.keys("n")
}

// A metric gate naming a template that is not there is refused at the
// plan, in one line naming it, and nothing is sent: the deployment stays
// as it was, with no canary.
func TestConsoleCanaryRefusesAMissingAnalysisTemplate(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 44, "--scenario", quietCanaryFile(t), "--speed", "30")
	c.waitFor("successfully rolled out")
	c.askCanary("gcr.io/google-samples/gb-frontend:v3", "steps: pods or % of 6 replicas", "")
	c.keys("-l", "error-rate")
	c.keys("Enter")
	s := c.waitFor(`AnalysisTemplate "error-rate" not found in namespace`)
	if strings.Contains(s, "will send") || strings.Contains(s, "canary step") {
		t.Errorf("a plan with a missing template went on:\n%s", s)
	}
	c.keys("Escape")
	c.WaitUntil("the dialog closed, no canary", func(s string) bool {
		return !strings.Contains(s, "metric gates") && strings.Contains(s, "successfully rolled out") && !strings.Contains(s, "canary step")
	})
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
