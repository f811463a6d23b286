package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// quietCanaryPath is the canary scenario without scripted actions: the
// test drives the rollout from the keys.
const quietCanaryPath = "../../testdata/scenarios/quiet-canary.yaml"

func quietCanaryFile(t *testing.T) string {
	t.Helper()
	path, err := filepath.Abs(quietCanaryPath)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// setImage drives the set image dialog to v3 and confirms it.
func (c *tmuxConsole) setImage(image string) {
	c.t.Helper()
	c.keys("i")
	c.waitFor("> gcr.io/google-samples/gb-frontend:v2")
	c.keys("C-u")
	c.keys("-l", image)
	c.keys("Enter")
	c.waitFor("will send the same as")
	// maxSurge 1 / maxUnavailable 0 on 6 replicas: one pod at a time.
	s := c.waitFor("forecast: 12 scaling steps, new pods ready in 6 waves, at most 7 pods, never fewer than 6")
	if !strings.Contains(s, "about ") {
		c.t.Errorf("the forecast has no duration from the observed readiness:\n%s", s)
	}
	c.keys("y")
	c.waitFor("set image php-redis=" + image + ": ok")
}

// The guided canary: set image, pause once the first new pod is available,
// see the rollout held, then resume and watch it finish.
func TestConsoleGuidedCanary(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	// Speed 20, not more: the pause must land while the rollout is under
	// way, and a loaded machine takes a while to open and confirm it.
	c := startConsole(t, 120, 40, "--scenario", quietCanaryFile(t), "--speed", "20")
	c.waitFor("successfully rolled out")
	c.setImage("gcr.io/google-samples/gb-frontend:v3")
	// maxSurge 1 / maxUnavailable 0: one new pod at a time, each once the
	// one before is available. Any of the first three moments will do (one
	// of them alone lasts a few hundred milliseconds, and a screen read
	// under load can miss it); at least three pods are then left to roll.
	c.WaitMatch(regexp.MustCompile(`[1-3] out of 6 new replicas have been updated`))
	c.keys("p")
	c.waitFor("rollout pause deployment/frontend")
	c.keys("y")
	s := c.waitFor("PAUSED")
	if !strings.Contains(s, "pause: ok") {
		t.Errorf("no result for the pause:\n%s", s)
	}
	held := c.waitFor("DeploymentPaused")
	if strings.Contains(held, "successfully rolled out") {
		t.Fatalf("the paused rollout finished anyway:\n%s", held)
	}
	c.keys("r")
	c.waitFor("rollout resume deployment/frontend")
	c.keys("y")
	c.waitFor("resume: ok")
	s = c.waitFor("successfully rolled out")
	if !strings.Contains(s, "rev 2") {
		t.Errorf("the resumed rollout did not finish on revision 2:\n%s", s)
	}
}

// Interactive rollback: after a rollout to v3, undo from the history
// picker to revision 1 and watch the rollout back to v2 complete.
func TestConsoleInteractiveRollback(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", quietCanaryFile(t), "--speed", "60")
	c.waitFor("successfully rolled out")
	c.setImage("gcr.io/google-samples/gb-frontend:v3")
	c.waitFor("rev 2")
	c.waitFor("successfully rolled out")
	// The History pane's diff of revision 1 reads as the undo's does:
	// current → revision, - what goes away, + what the undo brings back.
	c.keys("Tab", "Tab", "Tab")
	c.waitFor("▶ History")
	c.keys("k", "Enter")
	s := c.waitFor("current (revision 2) → revision 1 pod template")
	if !strings.Contains(s, "(- goes away, + an undo brings back)") || !regexp.MustCompile(`-\s+image: gcr.io/google-samples/gb-frontend:v3`).MatchString(s) ||
		!regexp.MustCompile(`\+\s+image: gcr.io/google-samples/gb-frontend:v2`).MatchString(s) {
		t.Errorf("the History diff does not read current → revision 1:\n%s", s)
	}
	c.keys("Escape")
	c.WaitUntil("the diff closed", func(s string) bool { return !strings.Contains(s, "History · diff") })
	c.keys("u")
	s = c.waitFor("undo to which revision?")
	if !strings.Contains(s, "back to revision 1's template (gcr.io/google-samples/gb-frontend:v2), which becomes") {
		t.Errorf("the picker does not start on revision 1:\n%s", s)
	}
	c.keys("Enter")
	s = c.waitFor("current → revision 1 (- goes away, + an undo brings back)")
	if !regexp.MustCompile(`-\s+image: gcr.io/google-samples/gb-frontend:v3`).MatchString(s) ||
		!regexp.MustCompile(`\+\s+image: gcr.io/google-samples/gb-frontend:v2`).MatchString(s) || !strings.Contains(s, "--to-revision=1") {
		t.Errorf("the preview does not show the change back to v2:\n%s", s)
	}
	c.keys("y")
	// The toast says the number the template now has, as the header does.
	c.waitFor("undo to revision 1: back on revision 1's template, now revision 3")
	c.waitFor("rev 3")
	s = c.waitFor("successfully rolled out")
	// The current revision (marked *) is revision 1's template again,
	// change-cause and all.
	current := ""
	for _, line := range strings.Split(s, "\n") {
		if _, after, ok := strings.Cut(line, "│  *"); ok {
			current = after
		}
	}
	if !strings.Contains(current, "3") || !strings.Contains(current, "deploy guestbook") {
		t.Errorf("after the undo the current revision is %q, want revision 3 running revision 1's template:\n%s", current, s)
	}
}

func TestConsoleReadOnlySaysSo(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 100, 30, "--scenario", quietCanaryFile(t), "--read-only")
	c.waitFor("READ-ONLY")
	c.keys("p")
	c.waitFor("read-only: rollscope was started with --read-only")
}
