package main

import (
	"strings"
	"testing"
)

// --plain ends as `kubectl rollout status` does once the rollouts it
// follows have finished (0) or failed (1), with kubectl's words on stderr;
// the banner goes to stderr so stdout holds status lines only.
func TestPlainEndsWithKubectlRolloutStatusExitCodes(t *testing.T) {
	cases := []struct {
		scenario string
		code     int
		last     string
		stderr   string
	}{
		{"frontend", 0, `deployment "frontend" successfully rolled out`, ""},
		{"crashloop", 1, `deployment "frontend" exceeded its progress deadline`, `rollscope: deployment "frontend" exceeded its progress deadline`},
		{"canary", 1, "PAUSED", `rollscope: deployment "frontend" is paused part way and nothing left in the scenario resumes it`},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			r := rollscope(t, "--plain", "--speed", "200", "--scenario", tc.scenario)
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			// The last status line: a blocker line ("… why …") may follow it.
			last := ""
			for _, l := range lines {
				if !strings.Contains(l, "] deployment/frontend why ") {
					last = l
				}
			}
			if r.code != tc.code || !strings.Contains(last, tc.last) {
				t.Errorf("exit %d, last status line %q; want exit %d after %q\nstderr: %s", r.code, last, tc.code, tc.last, r.stderr)
			}
			if !strings.HasPrefix(r.stderr, `rollscope: embedded cluster, scenario "`+tc.scenario+`"`) || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q: want the banner, then %q", r.stderr, tc.stderr)
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, "[") {
					t.Errorf("stdout line %q is not a stamped status or action line", l)
				}
			}
		})
	}
}

// Every usage error exits 2 with one line in one style — cobra's own
// (arguments, unknown commands, flag values) as well as rollscope's.
func TestUsageErrorsExit2InOneStyle(t *testing.T) {
	for _, args := range [][]string{
		{"--speed", "abc"}, {"a", "b"}, {"--nosuch"}, {"simulate", "a"}, {"scenarios", "nosuch"},
		{"scenarios", "show"}, {"--speed", "0"}, {"-n", "shop", "--plain"}, {"rolling-update"},
	} {
		r := rollscope(t, args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, "rollscope: ") || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("rollscope %v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := rollscope(t, "--version"); r.code != 0 || !strings.HasPrefix(r.stdout, "rollscope ") {
		t.Errorf("--version: exit %d, %q", r.code, r.stdout)
	}
}

// In a terminal the script's view is the same: the shell sees exit 1 after
// a rollout that exceeded its progress deadline.
func TestConsolePlainInATerminalExitsOneOnAFailedRollout(t *testing.T) {
	c := startConsole(t, 160, 20, "--plain", "--speed", "200", "--scenario", "crashloop")
	s := c.waitFor("rollscope exited 1")
	if !strings.Contains(s, `rollscope: deployment "frontend" exceeded its progress deadline`) {
		t.Errorf("no failure line before the exit:\n%s", s)
	}
}
