package main

import (
	"strings"
	"testing"
)

// A count of one reads in the singular: the node detail of a node running
// one pod says "1 pod", not "1 pods".
func TestConsoleCountsOfOneAreSingular(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	one := strings.NewReplacer("size: 2", "size: 1", "replicas: 2", "replicas: 1").Replace(goodScenario)
	c := startConsole(t, 120, 30, "--scenario", writeFile(t, "one.yaml", one))
	c.waitFor("REV ROLE")
	c.keys("Tab", "Tab")
	c.waitFor("▶ Nodes")
	c.keys("Enter")
	s := c.waitFor("nodes-0: group nodes")
	if !strings.Contains(s, "· 1 pod ·") || strings.Contains(s, "1 pods") {
		t.Errorf("the node detail does not say 1 pod:\n%s", s)
	}
}
