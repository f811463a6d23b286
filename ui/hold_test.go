package ui

import (
	"strings"
	"testing"

	"rollscope/model/cluster"
)

// A writing dialog holds the embedded clock while it is open and says so
// in the header; closing it lets the clock run again. A clock the operator
// paused is left paused.
func TestAWritingDialogHoldsTheEmbeddedClock(t *testing.T) {
	clock := &fakeClock{speed: 1}
	m := newActionModel(t, oneContainer(), midRollout(), func(o *Options) { o.Embedded = clock })
	m = run(m, press("p"))
	if !clock.paused || !strings.Contains(plain(m), "CLOCK HELD (dialog open)") {
		t.Fatalf("the pause dialog is open, clock paused %v:\n%s", clock.paused, plain(m))
	}
	m = run(m, press("esc"))
	if clock.paused || strings.Contains(plain(m), "CLOCK HELD") {
		t.Fatalf("the dialog closed and the clock is still held:\n%s", plain(m))
	}
	// The help overlay writes nothing: the clock runs.
	m = run(m, press("?"))
	if clock.paused {
		t.Error("the help overlay held the clock")
	}
	m = run(m, press("esc"))
	// Paused by the operator: the dialog leaves it paused after closing.
	clock.paused = true
	m = run(m, press("p"), press("esc"))
	if !clock.paused {
		t.Error("closing a dialog restarted a clock the operator had paused")
	}
}

// On a live cluster nothing holds the rollout still: y re-checks the plan
// against the cluster as it is now, and when the rollout moved on it sends
// nothing and says what changed.
func TestYRechecksThePlanAgainstTheClusterAsItIsNow(t *testing.T) {
	acts := oneContainer()
	src := midRollout()
	m := newActionModel(t, acts, src, nil)
	m = run(m, press("x"))
	if s := plain(m); !strings.Contains(s, "stops the rollout") {
		t.Fatalf("no abort plan:\n%s", s)
	}
	// The rollout finishes while the operator reads the plan.
	r := src.rollouts["shop/frontend"]
	r.Done = true
	src.rollouts["shop/frontend"] = r
	m = run(m, cluster.Batch{})
	m = run(m, press("y"))
	s := plain(m)
	if len(acts.sent) != 0 {
		t.Fatalf("sent %+v after the rollout finished", acts.sent)
	}
	for _, want := range []string{"nothing sent: the rollout has finished", "has finished — nothing to abort"} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
			t.Errorf("the dialog does not say %q:\n%s", want, s)
		}
	}
}
