package cluster

import "testing"

func TestSameBlocker(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"waiting for new pods to become available, 2 of 4 so far — web-1 not ready for 3s: readiness probe failed",
			"waiting for new pods to become available, 2 of 4 so far — web-1 not ready for 1m4s: readiness probe failed", true},
		{"waiting for new pods to become available, 2 of 4 so far — web-1 not ready for 3s",
			"waiting for new pods to become available, 3 of 4 so far — web-1 not ready for 4s", false},
		{"waiting for new pods to become available, 2 of 4 so far — web-1 not ready for 3s",
			"waiting for 2 new pods to become available — web-2 not ready for 3s", false},
		{"minReadySeconds: 3 new pods ready, available in 4s", "minReadySeconds: 3 new pods ready, available in 1s", true},
		{"minReadySeconds: 3 new pods ready, available in 4s", "minReadySeconds: 2 new pods ready, available in 4s", false},
		{"waiting for new pods to become available, 3 of 4 so far — web-1 not ready for 2h5m", "waiting for new pods to become available, 3 of 4 so far — web-1 not ready for 2h6m", true},
		// Durations that are settings, not the clock, still count.
		{"Recreate — waiting for old pods to terminate (2 terminating, grace 30s)",
			"Recreate — waiting for old pods to terminate (2 terminating, grace 60s)", false},
		{"progress deadline exceeded after 600s — the rollout has failed; undo (u) or abort (x)",
			"progress deadline exceeded after 60s — the rollout has failed; undo (u) or abort (x)", false},
		{"new pods crash-loop — web-1 restarted 5 times, last exit 1 (Error)", "new pods crash-loop — web-1 restarted 6 times, last exit 1 (Error)", false},
		{"", "rolling out: 1 of 4 new pods available", false},
	} {
		if got := SameBlocker(c.a, c.b); got != c.same {
			t.Errorf("SameBlocker(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
		if got := SameBlocker(c.b, c.a); got != c.same {
			t.Errorf("SameBlocker(%q, %q) = %v, want %v", c.b, c.a, got, c.same)
		}
	}
}
