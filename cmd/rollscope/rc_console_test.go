package main

import (
	"strings"
	"testing"
)

// openRCUpdate opens the ReplicationController view of web in the legacy-rc
// scenario and starts an update to image with the given update period.
func openRCUpdate(t *testing.T, c *tmuxConsole, image, period string) {
	t.Helper()
	// web is the scenario's only workload: the console opens on it.
	c.waitFor("rc/web  phase")
	c.keys(":", "rc web", "Enter")
	c.waitFor("rc/web  phase no update running")
	c.waitFor("desired/current/ready 4/4/4")
	c.keys("i")
	c.waitFor("Rolling update of rc/web")
	c.keys(image, "Tab", "Tab", "Tab", "BSpace", "BSpace", period, "Enter")
	s := c.waitFor("send?")
	wantAll(t, s, "the confirmation", "nginx:1.25 → "+image, "grow it to 4 replicas", "at most 5 pods, at least 4 available", "renamed back to web")
	c.keys("y")
	c.waitFor("rolling update of rc/web to " + image + ": asked")
	c.waitFor("phase rollout")
}

// The console's rolling update: :rc web, i, the new image, y, and the
// update runs to the end — the next controller renamed back to web.
func TestConsoleRCRollingUpdate(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", legacyRC, "--speed", "20")
	openRCUpdate(t, c, "nginx:1.27", "5s")
	s := c.waitFor("next web-")
	if !strings.Contains(s, "desired-replicas=4") {
		t.Errorf("the next controller's annotations are not shown:\n%s", s)
	}
	s = c.WaitUntil("web alone on nginx:1.27", func(s string) bool {
		return strings.Contains(s, "phase no update running") && strings.Contains(s, "next none") && strings.Contains(s, "nginx:1.27") &&
			strings.Contains(s, "desired/current/ready 4/4/4")
	})
	if !strings.Contains(s, "rolling updated") {
		t.Errorf("the progress lines do not end with kubectl's last one:\n%s", s)
	}
}

// x mid-rollout rolls the update back: web grows back to 4 on the old image
// and the next controller goes.
func TestConsoleRCAbort(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", legacyRC, "--speed", "20")
	openRCUpdate(t, c, "nginx:1.27", "2m")
	c.waitFor("Scaling web down to 3")
	c.keys("x")
	c.waitFor("Abort the rolling update of rc/web?")
	c.keys("y")
	c.waitFor("abort of rc/web: asked")
	c.waitFor("rolling back")
	c.WaitUntil("web alone on nginx:1.25", func(s string) bool {
		return strings.Contains(s, "phase no update running") && strings.Contains(s, "next none") && strings.Contains(s, "nginx:1.25") &&
			strings.Contains(s, "desired/current/ready 4/4/4")
	})
}
