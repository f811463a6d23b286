package main

import (
	"strings"
	"testing"

	"rollscope/internal/tmuxtest"
)

// With NO_COLOR the focused pane is still marked (▶), enter on a
// ReplicaSet goes to its pods, and the Timeline filters with f and shows
// the selected line whole with enter.
func TestConsoleFocusSelectionAndTimeline(t *testing.T) {
	t.Parallel()
	c := &tmuxConsole{t: t, Session: tmuxtest.Start(t, 120, 40, "env", "NO_COLOR=1", binary, "--scenario", "frontend", "--speed", "20")}
	c.waitFor("▶ ReplicaSets")
	c.keys("Enter")
	s := c.waitFor("▶ Pods of frontend-")
	if strings.Contains(s, "▶ ReplicaSets") {
		t.Errorf("two panes marked focused:\n%s", s)
	}
	c.waitFor("rev 2") // the rollout to v3 has started
	c.keys("Tab", "Tab", "Tab")
	c.waitFor("▶ Timeline")
	c.keys("f")
	c.waitFor("timeline: actions")
	c.keys("f")
	s = c.waitFor("timeline: scaling")
	c.keys("Enter")
	s = c.WaitUntil("the whole line under the list", func(s string) bool { return strings.Contains(s, "─────") && strings.Contains(s, " scale ") })
	if strings.Contains(s, "(combined from similar events)") {
		t.Errorf("the raw recorder aside is shown:\n%s", s)
	}
}
