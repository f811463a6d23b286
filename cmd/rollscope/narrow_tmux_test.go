package main

import (
	"fmt"
	"strings"
	"testing"
)

// lineWith is the screen's first line holding want, "" when none does.
func lineWith(s, want string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}

// firstLine is the screen's first line.
func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// On narrow screens the fleet gives up KIND, REV and NAMESPACE before
// STATE, and keeps PROGRESS; a wide one keeps the tag of the image rolled
// to whole.
func TestConsoleNarrowFleetKeepsStateAndProgress(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	for _, c := range []struct {
		w          int
		want, gone []string
	}{
		{60, []string{"NAME", "PROGRESS", "STATE"}, []string{"KIND", "NAMESPACE"}},
		{40, []string{"NAME", "PROGRESS", "STATE"}, []string{"KIND", "REV"}},
	} {
		t.Run(fmt.Sprint(c.w), func(t *testing.T) {
			con := startConsole(t, c.w, 20, "--scenario", "fleet", "--speed", "10")
			s := con.waitFor("PROGRESS")
			header := lineWith(s, "PROGRESS")
			for _, w := range c.want {
				if !strings.Contains(header, w) {
					t.Errorf("at %d columns the fleet's columns %q lack %s:\n%s", c.w, header, w, s)
				}
			}
			for _, g := range c.gone {
				if strings.Contains(header, g) {
					t.Errorf("at %d columns the fleet keeps %s over what matters: %q\n%s", c.w, g, header, s)
				}
			}
		})
	}
	con := startConsole(t, 120, 30, "--scenario", "fleet", "--speed", "10")
	s := con.waitFor("checkout")
	s = con.WaitUntil("checkout rolling to its broken tag", func(s string) bool { return strings.Contains(lineWith(s, "checkout"), "broken") })
	if row := lineWith(s, "checkout"); !strings.Contains(row, "3.0.0-broken") {
		t.Errorf("at 120 columns the image rolled to lost its tag: %q\n%s", row, s)
	}
}

// At 80 columns the header keeps PAUSED and READ-ONLY and gives up the
// clock; kubectl's sentence takes a second line rather than lose its end.
func TestConsoleHeaderKeepsBadgesOverTheClock(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 80, 24, "--scenario", "canary", "--speed", "10", "--read-only")
	s := c.waitFor("PAUSED")
	head := firstLine(s)
	wantAll(t, head, "the header's first line", "deploy frontend", "PAUSED", "READ-ONLY")
	if strings.Contains(head, "clock") {
		t.Errorf("the header keeps the clock over what it shows: %q", head)
	}
	c = startConsole(t, 80, 24, "--scenario", "crashloop", "--speed", "10")
	s = c.waitFor("why ")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "why ") && strings.HasSuffix(strings.TrimRight(l, " "), "…") {
			t.Errorf("the why line is cut on its first line instead of wrapping:\n%s", s)
		}
		if strings.HasPrefix(l, "… Waiting") && i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "  ") {
			t.Errorf("kubectl's sentence is not wrapped to a second line at 80 columns:\n%s", s)
		}
	}
}

// The StatefulSet, DaemonSet and RC pages name their own kind and object
// in the header, never the Deployment's, and their footer offers only keys
// that act there.
func TestConsoleWorkloadPagesNameThemselves(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	for _, c := range []struct {
		args  []string
		where string
	}{
		{[]string{"--scenario", "stateful"}, "statefulset db"},
		{[]string{"--scenario", "daemons", "ds/node-agent"}, "daemonset node-agent"},
		{[]string{"--scenario", legacyRC}, "rc web"},
	} {
		t.Run(c.where, func(t *testing.T) {
			con := startConsole(t, 80, 24, append(c.args, "--speed", "10")...)
			// A banner ("connecting to the cluster…") holds the first line
			// until the watches sync, while the header below it may already
			// name the object: read the header once it is the first line.
			s := con.WaitUntil("the header naming "+c.where, func(s string) bool {
				return strings.Contains(firstLine(s), c.where)
			})
			head := firstLine(s)
			if strings.Contains(head, "deploy") || !strings.Contains(head, c.where) {
				t.Errorf("the header is %q, want it to name %s and no deployment", head, c.where)
			}
			if strings.Contains(s, "no deployment selected") {
				t.Errorf("the page speaks of a deployment:\n%s", s)
			}
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			footer := lines[len(lines)-1]
			for _, k := range []string{"tab next pane", "pick a pod"} {
				if strings.Contains(footer, k) {
					t.Errorf("the footer %q offers %q, which does nothing here", footer, k)
				}
			}
			if !strings.Contains(footer, "? help") {
				t.Errorf("the footer %q lost help", footer)
			}
		})
	}
}
