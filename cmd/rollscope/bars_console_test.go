package main

import (
	"strings"
	"testing"
)

// The canary's maxUnavailable is 0: its unavailable bar says "none" on a
// dotted bar instead of a permanently solid "full" one.
func TestConsoleBarsSayNoBudgetByDesign(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", "canary", "--speed", "10")
	s := c.waitFor("0/0 none")
	if !strings.Contains(s, "unavailable ····") || strings.Contains(s, "0/0 full") {
		t.Errorf("the unavailable bar of maxUnavailable 0:\n%s", s)
	}
}
