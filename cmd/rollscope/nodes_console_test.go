package main

import (
	"regexp"
	"strings"
	"testing"
)

// A stepped node-group roll driven from the console on the embedded
// node-upgrade scenario: D with step on, two nodes with n, x to stop, and n
// to take the stopped roll up again. (The restart of rollscope mid-roll is
// covered against a real control plane in test/e2e/nodesconsole: the
// embedded cluster lives in the process and ends with it.)
func TestConsoleStepsANodeGroupRoll(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	// Slow enough that the clock can be paused before the scenario's own
	// rollNodes at 30s of virtual time.
	c := startConsole(t, 160, 45, "--scenario", "node-upgrade", "--speed", "2")
	c.waitFor("deploy api")
	c.keys("Space") // pause the clock: the roll starts from the dialog
	c.waitFor("CLOCK PAUSED")
	c.keys("Tab", "Tab")
	c.waitFor("nodes-0")

	c.keys("D")
	s := c.waitFor("Roll node group nodes · 4 of 4 nodes outdated")
	if !strings.Contains(s, "maxUnavailable") || !strings.Contains(s, "[ ]") {
		t.Fatalf("the roll dialog lacks its fields or starts stepped without --step:\n%s", s)
	}
	// Bad input is refused with the reason before anything is sent.
	c.keys("Down", "1", "5", "0", "%", "Enter")
	c.waitFor("maxUnavailable 150% is outside 0%–100%")
	c.keys("BSpace", "BSpace", "BSpace", "BSpace", "Down", "Down", "Space", "Enter")
	s = c.waitFor("will send the same as:")
	if !strings.Contains(s, "--interactive") || !strings.Contains(s, "stepped: waits after every node until n") {
		t.Fatalf("the confirmation does not say the roll is stepped:\n%s", s)
	}
	c.keys("y")
	c.waitFor("roll group nodes: requested")
	c.waitFor("roll nodes: running")

	// Back to the clock: in the Nodes pane space would pause the roll.
	c.keys("Tab", "Space", "BTab", "+", "+", "+", "+")
	c.waitFor("roll nodes: waiting · stepped · 0/4 replaced")
	c.keys("n")
	c.waitFor("roll nodes: waiting · stepped · 1/4 replaced")
	c.keys("n")
	c.waitFor("roll nodes: waiting · stepped · 2/4 replaced")

	c.keys("x")
	c.waitFor("Stop the roll · group nodes")
	c.keys("y")
	s = c.waitFor("roll nodes: stopped")
	if !strings.Contains(s, "n resumes it") {
		t.Errorf("a stopped roll does not say how to take it up again:\n%s", s)
	}
	// Elsewhere x is still the rollout abort.
	c.keys("Tab")
	c.keys("x")
	c.waitFor("nothing to abort")

	c.keys("n")
	c.waitFor("resume the stopped roll of group nodes (the outdated nodes left, same settings): ok")
	c.waitFor("roll nodes: waiting · stepped")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// Between nodes a roll waits for its group to launch a replacement and for
// that node to become Ready: the roll line says which, and when the roll
// fails unless the cluster validates; the node the roll took out of its
// group for the surge reads detached, not queued.
func TestConsoleRollSaysWhichNodeItWaitsFor(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	// Each wait lasts 10 virtual seconds or more: two real ones at ×5.
	c := startConsole(t, 160, 30, "--scenario", "node-upgrade", "--speed", "5")
	c.waitFor("deploy api")
	c.keys("Tab", "Tab")
	// Once the roll's validation fails, the line counts down to when the
	// roll fails unless the cluster validates (15 minutes, kops' default),
	// on the roll line's second line in this pane.
	s := c.WaitMatch(untilFails("roll nodes: running · 0/4 replaced · waits for nodes-4 to be Ready", "14m"))
	if !regexp.MustCompile(`nodes-3 .* detached`).MatchString(s) || !regexp.MustCompile(`nodes-4 +nodes +NotReady`).MatchString(s) {
		t.Errorf("while the surge node boots, nodes-3 is not detached or nodes-4 not NotReady:\n%s", s)
	}
	c.waitFor("roll nodes: running · 1/4 replaced · waits for 1 more Ready node (3 of 4)")
	c.WaitMatch(untilFails("roll nodes: running · 1/4 replaced · waits for nodes-5 to be Ready", "14m"))
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// untilFails matches a roll line that says what the roll waits for and in
// how long it fails, on one line or wrapped onto the pane's next one.
func untilFails(waits, in string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(waits+" · fails in") + `(?: |\s*\n.*│\s*)` + regexp.QuoteMeta(in))
}
