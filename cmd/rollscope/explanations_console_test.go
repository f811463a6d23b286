package main

import (
	"strings"
	"testing"
)

// What the console explains is what happens: a failed rollout wears the
// failure mark, not the in-progress one; a forecast for a new image says
// it assumes the image starts; removing a variable that is not set is
// refused instead of promising a rollout.
func TestConsoleExplanationsAreTrue(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 40, "--scenario", "crashloop", "--speed", "20")
	s := c.waitFor("exceeded its progress deadline")
	if !strings.Contains(s, `✖ deployment "frontend" exceeded its progress deadline`) {
		t.Errorf("the failed rollout's sentence does not wear ✖:\n%s", s)
	}
	c.keys("i")
	c.waitFor("image for php-redis")
	c.keys("C-u")
	c.keys("-l", "gcr.io/google-samples/gb-frontend:v5")
	c.keys("Enter")
	s = c.WaitUntil("the forecast", func(s string) bool { return strings.Contains(strings.Join(strings.Fields(s), " "), "becomes ready") })
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "assumes gcr.io/google-samples/gb-frontend:v5 starts and becomes ready") {
		t.Errorf("the forecast does not say it assumes the image starts:\n%s", s)
	}
	c.keys("Escape")
	// Wait for the dialog to close: esc then e at once reads as alt+e.
	c.WaitUntil("the dialog closed", func(s string) bool { return !strings.Contains(s, "Set image") })
	c.keys("e")
	c.waitFor("NAME=value to set")
	c.keys("-l", "NOPE-")
	c.keys("Enter")
	s = c.waitFor("NOPE is not set in php-redis")
	if strings.Contains(s, "starts a rollout") {
		t.Errorf("removing an unset variable still promises a rollout:\n%s", s)
	}
}
