package main

import (
	"strings"
	"testing"
)

// A refused :ns leaves nothing half-changed: on the fleet of every
// namespace, :ns of a namespace the cluster lacks says so and the fleet
// stays on billing, where the next : command looks.
func TestConsoleRefusedNamespaceLeavesTheScopeAsItWas(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", "fleet", "--speed", "20")
	c.waitFor("failed")
	c.keys(":", "ns billing", "Enter")
	c.waitFor("ns billing · ")
	c.keys(":", "ns nope", "Enter")
	s := c.waitFor("no namespace nope in the cluster")
	if !strings.Contains(s, "ns billing · ") || strings.Contains(s, "ns nope") {
		t.Errorf("the refused :ns nope changed what the fleet shows:\n%s", s)
	}
	c.keys(":", "zzz", "Enter")
	c.waitFor(`no deployment matches "zzz" in namespace billing`)
}
