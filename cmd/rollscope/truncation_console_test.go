package main

import (
	"strings"
	"testing"
)

// What is cut leaves the way to the rest: the footer keeps "? help" and
// "q quit" at 120 columns, and a pod's ContainerCreating status is whole.
func TestConsoleFooterKeepsHelpAndQuit(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", "frontend", "--speed", "20")
	s := c.waitFor("ContainerCreating")
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	footer := lines[len(lines)-1]
	if !strings.Contains(footer, "? help") || !strings.Contains(footer, "q/ctrl+c quit") {
		t.Errorf("the footer lost help or quit: %q", footer)
	}
	if strings.Contains(s, "ContainerCreati…") {
		t.Errorf("ContainerCreating is cut:\n%s", s)
	}
}
