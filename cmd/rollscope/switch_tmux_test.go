package main

import (
	"strings"
	"testing"
)

// The console quits with a Switch when the operator asks for a scope its
// watch does not cover (0 on the one -n names), and starts again on it on the
// same running embedded cluster: every namespace, the clock not reset.
func TestConsoleSwitchesToEveryNamespaceOnTheSameCluster(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--scenario", "fleet", "--speed", "20", "-n", "shop")
	s := c.waitFor("ns shop · 8 workloads")
	if strings.Contains(s, "ledger") {
		t.Fatalf("billing's ledger shows before the switch:\n%s", s)
	}
	c.waitFor("crash-looping")
	c.keys("0")
	c.waitFor("all namespaces")
	c.WaitUntil("billing's and search's rows after the switch", func(s string) bool {
		return strings.Contains(s, "ledger") && strings.Contains(s, "indexer") && strings.Contains(s, "checkout")
	})
	// The cluster kept running: checkout, crash-looping before the switch,
	// is no rollout started over (it would be rolling its first revision).
	s = c.waitFor("all namespaces · 33 workloads")
	for _, l := range fleetRows(s) {
		if strings.Contains(l, "checkout") && !strings.Contains(l, "crash-looping") && !strings.Contains(l, "failed") {
			t.Errorf("checkout after the switch: %s", l)
		}
	}
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// 0 on the rollout page of a cluster holding one Deployment asks for the
// fleet of every namespace: the console starts again watching them and stays
// on that fleet, as it would had its watch covered them. It went back to the
// rollout page, the fleet never shown.
func TestConsoleSwitchedToEveryNamespaceShowsTheirFleet(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 40, "--speed", "20")
	c.waitFor("deploy frontend")
	c.keys("0")
	// The frontend scenario rolls twice: the fleet is still shown once its
	// row says the last rollout completed, long after the watch listed it.
	c.WaitUntil("the fleet of every namespace, frontend's rollouts complete", func(s string) bool {
		return strings.Contains(s, "all namespaces · 1 workload") && strings.Contains(s, "complete") && strings.Contains(s, ":v4")
	})
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
