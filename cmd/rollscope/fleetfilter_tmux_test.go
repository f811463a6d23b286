package main

import (
	"strings"
	"testing"
)

// The state the fleet shows as "node roll" can be typed as shown after
// /state: — no error, and the rows kept are those in a node roll.
func TestConsoleFleetFilterTakesTheNodeRollWordAsShown(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", "fleet", "--speed", "20", "-n", "platform")
	c.waitFor("node roll")
	// The clock held, the rows keep still while they are read.
	c.keys("Space")
	c.waitFor("CLOCK PAUSED")
	c.keys("/", "state:node roll")
	s := c.WaitUntil("the node-roll rows kept", func(s string) bool {
		rows := fleetRows(s)
		return len(rows) > 0 && !strings.Contains(s, "not a rollout state")
	})
	for _, row := range fleetRows(s) {
		if !strings.Contains(row, "node roll") {
			t.Errorf("/state:node roll kept a row in another state: %q\n%s", row, s)
		}
	}
}
