package main

import (
	"strings"
	"testing"
)

// fleetScenario has five Deployments in default (ledger fails its
// deadline, search is paused half way) and two in billing.
const fleetScenario = "testdata/fleet-console.yaml"

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

// The fleet through the real binary: the start screen when the scenario
// has several workloads, the failed rollout first, /state:paused keeping
// the paused one, enter opening it, esc coming back, and a rollout key on
// a row opening that deployment's dialog.
func TestConsoleOpensOnTheFleet(t *testing.T) {
	c := startConsole(t, 140, 40, "--scenario", fleetScenario, "--speed", "20")
	s := c.waitFor("1 failed")
	rows := fleetRows(s)
	if len(rows) != 5 || !strings.Contains(rows[0], "ledger") || !strings.Contains(rows[0], "✖ failed") {
		t.Fatalf("the failing rollout is not first of default's five:\n%s", s)
	}
	if !strings.Contains(s, "ns default · 5 workloads") || !strings.Contains(s, "exceeded its progress deadline") {
		t.Errorf("the scope line or the failing row's why is missing:\n%s", s)
	}
	c.keys("/", "state:paused")
	s = c.waitFor("/state:paused█  1 of 5")
	if rows := fleetRows(s); len(rows) != 1 || !strings.Contains(rows[0], "search") || !strings.Contains(rows[0], "‖ paused") {
		t.Fatalf("/state:paused does not keep search alone:\n%s", s)
	}
	c.keys("Enter")
	c.waitFor("/state:paused  1 of 5")
	c.keys("Enter")
	s = c.waitFor("ns default  deploy search")
	if !strings.Contains(s, "PAUSED") || !strings.Contains(s, "ReplicaSets") {
		t.Errorf("enter did not open search's rollout:\n%s", s)
	}
	c.keys("Escape")
	s = c.waitFor("/state:paused  1 of 5")
	if !strings.Contains(s, "default deploy/search:") {
		t.Errorf("esc did not come back to the fleet on search:\n%s", s)
	}
	// r on the row: the same resume dialog the rollout view opens.
	c.keys("r")
	c.waitFor("kubectl -n default rollout resume deployment/search")
	c.keys("Escape")
	c.waitFor("/state:paused  1 of 5")
	// An unknown state word: one line saying which there are.
	c.keys("/", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "stuk")
	c.waitFor(`"stuk" is not a rollout state: use one of failed, stuck`)
	c.keys("Escape")
	c.WaitUntil("the filter cleared", func(s string) bool { return len(fleetRows(s)) == 5 })
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
