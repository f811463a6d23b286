package main

import (
	"strings"
	"testing"
)

// After a rollout has exceeded its progress deadline, the undo's forecast
// says the rollback finishes — as it then does — instead of repeating the
// old deadline: the controller restarts the progress clock when the
// rollback makes progress, and so does the rehearsal.
func TestConsoleForecastsARollbackOfAFailedRolloutThatFinishes(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", "crashloop", "--speed", "20")
	c.waitFor("exceeded its progress deadline")
	c.keys("u")
	c.waitFor("undo to which revision?")
	c.keys("Enter")
	c.waitFor("forecast:")
	s := c.WaitUntil("the forecast's last words", func(s string) bool { return strings.Contains(s, "about ") || strings.Contains(s, "stops after") })
	// The dialog wraps the forecast: read it as one sentence.
	forecast := strings.Join(strings.Fields(s[strings.Index(s, "forecast:"):]), " ")
	if strings.Contains(forecast, "progress deadline exceeded") || strings.Contains(forecast, "stops after") {
		t.Fatalf("the forecast of a rollback of a failed rollout does not say it finishes:\n%s", s)
	}
	c.keys("y")
	c.waitFor("successfully rolled out")
}
