package main

import (
	"strings"
	"testing"
)

// In a narrow terminal the stopped roll's sentence (with the drain's
// message) does not fit its two lines: the cut ends in "…", and enter on the
// Nodes pane shows it whole (enter again cuts it back).
func TestConsoleStoppedRollSentenceCutAndWhole(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 50, 30, "--scenario", "node-upgrade", "--speed", "2")
	c.waitFor("REV ROLE")
	c.keys("Tab", "Tab")
	c.waitFor("▶ Nodes")
	c.waitFor("roll nodes: running")
	c.keys("x")
	c.waitFor("Stop the roll")
	c.keys("y")
	c.waitFor("roll nodes: stopped")
	c.WaitUntil("the stopped roll's sentence with its message cut to two lines ending in …", func(s string) bool {
		roll := rollLines(s)
		return len(roll) == 2 && strings.HasSuffix(roll[1], "…")
	})
	c.keys("Enter")
	s := c.WaitUntil("the whole sentence", func(s string) bool { return len(rollLines(s)) > 2 })
	for _, l := range rollLines(s) {
		if strings.HasSuffix(l, "…") {
			t.Errorf("enter still shows the sentence cut: %q\n%s", rollLines(s), s)
		}
	}
	c.keys("Enter")
	c.WaitUntil("the sentence cut again", func(s string) bool { return len(rollLines(s)) == 2 })
}

// rollLines are the roll's lines above the Nodes table, trimmed.
func rollLines(screen string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.Contains(l, "roll nodes:"):
			in = true
		case strings.HasPrefix(strings.TrimLeft(l, " "), "NAME"):
			return out
		}
		if in {
			out = append(out, strings.TrimRight(l, " "))
		}
	}
	return out
}
