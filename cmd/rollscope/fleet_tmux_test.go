package main

import (
	"strings"
	"testing"
	"time"

	"rollscope/internal/tmuxtest"
)

// fleetRows are the fleet's table rows on screen: the lines under the
// header row, up to the first blank one.
func fleetRows(screen string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.Contains(l, "KIND") && strings.Contains(l, "STATE"):
			in = true
		case in && strings.TrimSpace(l) == "":
			return out
		case in:
			out = append(out, l)
		}
	}
	return out
}

// rankingStill waits until the fleet's rows stay as they are for longer
// than the fleet's pace (a second): what the watch brought as the clock
// stopped may still re-sort them once.
func (c *tmuxConsole) rankingStill() {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for before := ""; time.Now().Before(deadline); time.Sleep(1500 * time.Millisecond) {
		rows := strings.Join(fleetRows(c.Screen()), "\n")
		if rows != "" && rows == before {
			return
		}
		before = rows
	}
	c.t.Fatalf("the fleet's rows kept moving with the clock held:\n%s", c.Screen())
}

// The built-in fleet scenario through the real binary: the start screen
// when the namespace has several workloads, the failing rollout first and
// selected, its why under the table.
func TestConsoleFleetPutsTheFailingRolloutFirst(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", "fleet", "--speed", "20", "-n", "billing")
	s := c.waitFor("1 failed")
	rows := fleetRows(s)
	if len(rows) < 2 || !strings.Contains(rows[0], "ledger") || !strings.Contains(rows[0], "✖ failed") {
		t.Fatalf("the failing rollout is not first:\n%s", s)
	}
	if !strings.Contains(s, "ns billing · 8 workloads") || !strings.Contains(s, "billing deploy/ledger: ") ||
		!strings.Contains(s, "progress deadline exceeded after 30s") {
		t.Errorf("the scope line or the failing row's why is missing:\n%s", s)
	}
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// /state:paused keeps the paused rollout, enter opens it, esc comes back to
// the fleet with the filter kept, and a rollout key on its row opens the
// dialog the rollout view opens for it.
func TestConsoleFleetFiltersOpensAndActs(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", "fleet", "--speed", "20", "-n", "search")
	c.waitFor("1 paused")
	c.keys("/", "state:paused")
	s := c.waitFor("/state:paused█  1 of 7")
	if rows := fleetRows(s); len(rows) != 1 || !strings.Contains(rows[0], "query") || !strings.Contains(rows[0], "‖ paused") {
		t.Fatalf("/state:paused does not keep query alone:\n%s", s)
	}
	c.keys("Enter")
	c.waitFor("/state:paused  1 of 7")
	c.keys("Enter")
	s = c.waitFor("ns search  deploy query")
	if !strings.Contains(s, "PAUSED") || !strings.Contains(s, "ReplicaSets") {
		t.Errorf("enter did not open query's rollout:\n%s", s)
	}
	c.keys("Escape")
	s = c.waitFor("/state:paused  1 of 7")
	if !strings.Contains(s, "search deploy/query:") {
		t.Errorf("esc did not come back to the fleet on query:\n%s", s)
	}
	// r on the row: the same resume dialog the rollout view opens.
	c.keys("r")
	c.waitFor("kubectl -n search rollout resume deployment/query")
	c.keys("Escape")
	c.waitFor("/state:paused  1 of 7")
	// An unknown state word: one line saying which there are.
	c.keys("/", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "stuk")
	c.waitFor(`"stuk" is not a rollout state: use one of failed, stuck`)
	c.keys("Escape")
	c.WaitUntil("the filter cleared", func(s string) bool { return len(fleetRows(s)) == 7 })
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// With NO_COLOR the fleet's selected row is still marked: ↓ twice puts the
// marker on the third row, and on no other.
func TestConsoleFleetMarksTheSelectedRowWithoutColour(t *testing.T) {
	t.Parallel()
	c := &tmuxConsole{t: t, Session: tmuxtest.Start(t, 140, 40, "env", "NO_COLOR=1", binary, "--scenario", "fleet", "--speed", "20")}
	c.waitFor("1 failed")
	// The clock held, the ranking keeps still while the marker is read.
	c.keys("Space")
	c.waitFor("CLOCK PAUSED")
	c.rankingStill()
	c.keys("Down", "Down")
	c.WaitUntil("the marker on the third row only", func(s string) bool {
		rows := fleetRows(s)
		if len(rows) < 3 {
			return false
		}
		for i, r := range rows {
			if strings.HasPrefix(r, "▸") != (i == 2) {
				return false
			}
		}
		return true
	})
	c.keys("q")
	c.waitFor("env exited 0")
}
