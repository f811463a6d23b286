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
