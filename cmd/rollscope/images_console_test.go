package main

import (
	"strings"
	"testing"
)

// With a rollout in flight the operator can tell the ReplicaSets apart at
// 120 columns: images are cut before their last path element, tags kept,
// and the header says which image is leaving and which arriving.
func TestConsoleShowsImageTagsAndTheChangeInFlight(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", "frontend", "--speed", "10")
	s := c.WaitUntil("the rollout to v3 in flight", func(s string) bool {
		return strings.Contains(strings.SplitN(s, "\n", 2)[0], "→")
	})
	header := strings.SplitN(s, "\n", 2)[0]
	if !strings.Contains(header, "frontend:v2 → ") || !strings.Contains(header, "frontend:v3 ") {
		t.Errorf("the header does not say from → to:\n%s", header)
	}
	var v2, v3 bool
	for _, line := range strings.Split(s, "\n") {
		v2 = v2 || (strings.Contains(line, " old ") && strings.Contains(line, "gb-frontend:v2│"))
		v3 = v3 || (strings.Contains(line, " new ") && strings.Contains(line, "gb-frontend:v3│"))
	}
	if !v2 || !v3 {
		t.Errorf("the ReplicaSets pane hides the tags (old v2 %v, new v3 %v):\n%s", v2, v3, s)
	}
}
