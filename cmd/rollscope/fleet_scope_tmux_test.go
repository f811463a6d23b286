package main

import (
	"regexp"
	"strings"
	"testing"
)

// The built-in fleet scenario through the real binary, every namespace
// (-A): the failing rollout first, /state:paused keeping the paused one,
// enter opening it and esc coming back, and a scope the watch covers (0,
// :ns) narrowing the fleet without restarting anything.
func TestConsoleFleetScenarioAllNamespaces(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 48, "--scenario", "fleet", "--speed", "10", "-A")
	s := c.waitFor("1 failed")
	rows := fleetRows(s)
	if len(rows) == 0 || !strings.Contains(rows[0], "billing") || !strings.Contains(rows[0], "ledger") || !strings.Contains(rows[0], "✖ failed") {
		t.Fatalf("billing/ledger, failed, is not first:\n%s", s)
	}
	if !strings.Contains(s, "all namespaces ·") || !strings.Contains(s, "NAMESPACE") {
		t.Errorf("-A does not show every namespace:\n%s", s)
	}
	c.keys("/", "state:paused")
	c.WaitUntil("search/query alone", func(s string) bool {
		r := fleetRows(s)
		return len(r) == 1 && strings.Contains(r[0], "query") && strings.Contains(r[0], "‖ paused")
	})
	c.keys("Enter")
	c.waitFor("/state:paused  1 of")
	c.keys("Enter")
	c.waitFor("ns search  deploy query")
	c.keys("Escape")
	c.waitFor("search deploy/query:")
	// Clear the filter, then narrow to the console's namespace and to
	// billing: the watch covers both, so the fleet just narrows.
	c.keys("Escape")
	c.WaitUntil("the filter cleared", func(s string) bool { return !strings.Contains(s, "/state:paused") })
	c.keys("0")
	c.waitFor("ns shop ·")
	c.keys(":", "ns billing", "Enter")
	s = c.waitFor("ns billing ·")
	if r := fleetRows(s); len(r) == 0 || !strings.Contains(r[0], "ledger") {
		t.Errorf("billing's fleet does not start with ledger:\n%s", s)
	}
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// A scope the watch does not cover: the console watches shop (-n), :ns
// billing starts it again on billing, and 0 on every namespace.
func TestConsoleFleetSwitchesScope(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 48, "--scenario", "fleet", "--speed", "10", "-n", "shop")
	s := c.waitFor("ns shop ·")
	if strings.Contains(s, "ledger") {
		t.Errorf("the fleet of shop shows billing's ledger:\n%s", s)
	}
	c.keys(":", "ns billing", "Enter")
	s = c.waitFor("ns billing ·")
	if r := fleetRows(s); len(r) == 0 {
		t.Errorf("billing's fleet is empty:\n%s", s)
	}
	c.keys("0")
	c.waitFor("all namespaces ·")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// The fleet scenario spans namespaces, so it opens on all of them; narrowed
// to shop, the fleet says what is failing and stuck elsewhere (billing's
// ledger, search's indexer) and that 0 shows them.
func TestConsoleFleetNarrowedSaysWhatIsUrgentElsewhere(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 48, "--scenario", "fleet", "--speed", "10")
	s := c.waitFor("1 failed")
	if !strings.Contains(s, "all namespaces ·") || !strings.Contains(s, "ledger") {
		t.Fatalf("a scenario spanning namespaces did not open on all of them:\n%s", s)
	}
	c.keys(":", "ns shop", "Enter")
	// billing/ledger has failed; search/indexer turns stuck once its pull
	// error has held.
	s = c.WaitMatch(regexp.MustCompile(`(?m)^ 1 failing(, 1 stuck)? in other namespaces — 0 shows all`))
	if !strings.Contains(s, "ns shop ·") || strings.Contains(s, "ledger") {
		t.Errorf("the fleet is not narrowed to shop:\n%s", s)
	}
	c.keys("0")
	c.WaitUntil("every namespace again, the line gone", func(s string) bool {
		return strings.Contains(s, "all namespaces ·") && !strings.Contains(s, "other namespaces")
	})
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
