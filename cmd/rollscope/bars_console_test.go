package main

import (
	"regexp"
	"strings"
	"testing"
)

// The canary's maxUnavailable is 0: its unavailable bar says "none" on a
// dotted bar instead of a permanently solid "full" one.
func TestConsoleBarsSayNoBudgetByDesign(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 120, 40, "--scenario", "canary", "--speed", "10")
	s := c.waitFor("0/0 none")
	if !strings.Contains(s, "unavailable ····") || strings.Contains(s, "0/0 full") {
		t.Errorf("the unavailable bar of maxUnavailable 0:\n%s", s)
	}
}

// A rollout of ten thousand pods: the bars' figures take five digits, and
// the word after them — "over" while the first pods start, "full" while the
// surge budget holds the rollout — is still read whole at 80 columns, as at
// four digits (it was cut to "ov…" and "f…").
func TestConsoleBarsKeepTheirWordAtTenThousandPods(t *testing.T) {
	t.Parallel()
	c := startConsole(t, 80, 24, "--scenario", "../../testdata/scenarios/rollout-10k.yaml", "--speed", "20")
	c.WaitMatch(regexp.MustCompile(`unavailable █+ \d{4,5}/2500 over`))
	c.WaitMatch(regexp.MustCompile(`surge █+ 12500/12500 full`))
}
