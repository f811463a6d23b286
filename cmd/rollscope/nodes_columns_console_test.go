package main

import (
	"regexp"
	"strings"
	"testing"
)

// A narrow Nodes pane keeps the columns an operator needs during a drain or
// roll (NAME, READY, SCHED, DRAIN) and drops the least useful first
// (TAINTS, GROUP); enter on a node shows every field, taints included.
func TestConsoleNodesColumnsByPriorityAndFullDetail(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	// At speed 5 the roll (at 30 s of virtual time) taints the nodes a few real
	// seconds in, well inside the wait for it.
	c := startConsole(t, 60, 30, "--scenario", "node-upgrade", "--speed", "5")
	c.waitFor("REV ROLE")
	c.keys("Tab", "Tab")
	s := c.waitFor("▶ Nodes")
	header := regexp.MustCompile(`(?m)^ *NAME .*$`).FindString(s)
	for _, want := range []string{"READY", "SCHED", "DRAIN"} {
		if !strings.Contains(header, want) {
			t.Errorf("the narrow Nodes pane lost %s: %q", want, header)
		}
	}
	if strings.Contains(header, "TAINTS") {
		t.Errorf("TAINTS kept while more useful columns may be dropped: %q", header)
	}
	c.keys("Enter")
	s = c.waitFor("kops.k8s.io/scheduled-for-update")
	if !strings.Contains(s, "nodes-0: group nodes") {
		t.Errorf("enter does not show the selected node's fields:\n%s", s)
	}
}
