package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// While the daemons scenario rolls its node group, the DaemonSet view lists
// the replaced nodes whose pods are not yet collected as "node gone", and
// never more nodes updated than the DaemonSet's own "updated" count.
func TestConsoleDaemonSetCountsOnlyItsDesiredNodes(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 30, "--scenario", "daemons", "--speed", "10", "ds/node-agent")
	title := regexp.MustCompile(`desired (\d+)  updated (\d+)`)
	s := c.WaitUntil("a replaced node listed as gone", func(s string) bool { return strings.Contains(s, "node gone") })
	m := title.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no title:\n%s", s)
	}
	desired, _ := strconv.Atoi(m[1])
	if rows := regexp.MustCompile(`(?m)^  nodes-\d+ +updated `).FindAllString(s, -1); len(rows) > desired {
		t.Errorf("%d nodes listed updated for desired %d:\n%s", len(rows), desired, s)
	}
}

// The Move keys the help lists work on the DaemonSet view: end and home
// move the history cursor to the last and the first revision.
func TestConsoleDaemonSetHistoryMovesWithEndAndHome(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 30, "--scenario", "daemons", "--speed", "10", "ds/node-agent")
	c.waitFor("node-agent:2.2  (current)")
	c.keys("End")
	c.waitFor("▸ 2 ")
	c.keys("Home")
	c.waitFor("▸ 1 ")
	c.keys("PageDown")
	c.waitFor("▸ 2 ")
}
