package main

import (
	"strings"
	"testing"
)

// Through the binary: a speed above the ceiling is one line and exit 2,
// before anything runs; at the ceiling a plain run keeps the scenario's
// scripted action at its virtual time and ends at --until.
func TestPlainSpeedCeiling(t *testing.T) {
	r := rollscope(t, "--speed", "1e9", "--plain", "--until", "10s")
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "--speed 1e+09 is above 1000") || r.stdout != "" {
		t.Errorf("--speed 1e9: exit %d, stdout %q, stderr %q; want exit 2 and one line naming 1000", r.code, r.stdout, r.stderr)
	}
	r = rollscope(t, "--speed", "1000", "--plain", "--until", "70s")
	if r.code != 0 {
		t.Fatalf("--speed 1000: exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if !strings.HasPrefix(lines[0], "[    0.0s] ") {
		t.Errorf("first line %q, want it at 0.0s", lines[0])
	}
	if !strings.Contains(r.stdout, "[   60.0s] action setImage deployment/frontend: ok") {
		t.Errorf("the scripted set image is not at 60.0s:\n%s", r.stdout)
	}
	if last := lines[len(lines)-1]; last[:11] > "[   70.0s] " {
		t.Errorf("last line %q is after --until 70s", last)
	}
}
