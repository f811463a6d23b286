package main

import (
	"regexp"
	"testing"
	"time"
)

var clockRe = regexp.MustCompile(`clock (\d\d:\d\d:\d\d)`)

func clockOf(t *testing.T, screen string) string {
	t.Helper()
	m := clockRe.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no clock in the header:\n%s", screen)
	}
	return m[1]
}

// While a dialog that writes is open the embedded clock stands still, and
// the header says so: the plan, its forecast and the y that sends them are
// about the same cluster. Closing the dialog lets the clock run again.
func TestConsoleHoldsTheEmbeddedClockWhileADialogWrites(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", "frontend", "--speed", "10")
	c.waitFor("deploy frontend")
	c.keys("i")
	c.waitFor("image for php-redis")
	held := clockOf(t, c.waitFor("CLOCK HELD (dialog open)"))
	time.Sleep(1500 * time.Millisecond) // 15 virtual seconds, were the clock running
	if now := clockOf(t, c.Screen()); now != held {
		t.Fatalf("the clock moved from %s to %s while the set image dialog was open", held, now)
	}
	c.keys("Escape")
	c.WaitUntil("the clock running again", func(s string) bool {
		m := clockRe.FindStringSubmatch(s)
		return m != nil && m[1] != held
	})
}
