package main

import (
	"regexp"
	"strings"
	"testing"
)

// The argo-bluegreen built-in does what the README's row says: v2 promotes
// itself (the active Service moves to it, the first pods go), v3 is held
// on the preview Service, and P's confirmation forecasts the switch and the
// scale-down of v2 after scaleDownDelaySeconds, which promoting then does.
func TestArgoBlueGreenBuiltinHoldsV3ForAPromote(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 40, "--scenario", "argo-bluegreen", "--speed", "20", "ro/checkout")
	s := c.waitFor("stable web=shop/checkout:v2 · preview web=shop/checkout:v3")
	s = c.WaitUntil("v3 held on the preview Service", func(s string) bool {
		return strings.Contains(s, "Paused - manually paused") && regexp.MustCompile(`blueGreen · active (\w+) · preview (\w+)`).MatchString(s)
	})
	m := regexp.MustCompile(`blueGreen · active (\w+) · preview (\w+)`).FindStringSubmatch(s)
	if m == nil || m[1] == m[2] {
		t.Fatalf("the held page does not show the active Service on v2 and the preview on v3:\n%s", s)
	}
	v2, v3 := m[1], m[2]
	wantRow(t, s, "checkout-"+v3, "preview")
	wantRow(t, s, "checkout-"+v2, "stable active")
	c.keys("P")
	// The dialog asks at once and works the forecast out behind it: wait
	// for the forecast, not the send key. It wraps in the dialog: read it
	// as one line.
	s = c.WaitUntil("P's forecast", func(s string) bool {
		return strings.Contains(s, "y send") && !strings.Contains(strings.Join(strings.Fields(s), " "), "working out what the rollout will do")
	})
	wantAll(t, strings.Join(strings.Fields(s), " "), "P's forecast", "the active Service switches to checkout-"+v3+" after about 20s (autoPromotionSeconds 20)",
		"checkout-"+v2+" scales to 0 after about 35s (scaleDownDelaySeconds 15)")
	c.keys("y")

	s = c.waitFor("blueGreen · active " + v3 + " · preview " + v3)
	wantAll(t, s, "the promoted Rollout", "stable web=shop/checkout:v3")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
