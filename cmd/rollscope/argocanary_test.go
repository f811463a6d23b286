package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The argo-canary built-in's trace, byte for byte (go test -update
// rewrites it after review): the canary's steps at 20% and 50% of ten
// pods, the timed pause gone on after 30s, and the run ending quiescent at
// the indefinite pause.
func TestArgoCanaryTrace(t *testing.T) {
	r := rollscope(t, "simulate", "-f", "argo-canary", "--format", "table")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"Scaled up ReplicaSet checkout-5c8fd9fbd8 (revision 2) from 0 to 2",
		"Rollout step 2/6 completed (pause: 30s)",
		"Scaled down ReplicaSet checkout-67d698b9f (revision 1) from 8 to 5",
		"Rollout step 3/6 completed (setWeight: 50)",
		"quiescent",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the trace does not say %q", want)
		}
	}
	path := filepath.Join("testdata", "argo-canary.table")
	if *update {
		if err := os.WriteFile(path, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.stdout != string(want) {
		t.Errorf("the argo-canary trace differs from %s (go test -update rewrites it after review):\n%s", path, r.stdout)
	}
}
