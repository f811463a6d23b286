package watch

import (
	"testing"

	"rollscope/model/cluster"
)

// TestARestingPumpIsWokenByTheFirstChange: a pump that rests on a quiet
// cluster must hear of the next change, or the screen would stand still
// while the cluster moves; and only a resting pump is woken, so that a busy
// one is not woken once an event on top of its Interval.
func TestARestingPumpIsWokenByTheFirstChange(t *testing.T) {
	d := newDirtySet()
	woken := func() bool {
		select {
		case <-d.wake:
			return true
		default:
			return false
		}
	}
	pod := func(name string) cluster.ObjectRef {
		return cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: name}
	}

	d.mark(pod("web-1"))
	if woken() {
		t.Fatal("a pump that was not resting was woken")
	}
	if d.rest() {
		t.Fatal("the pump may rest with web-1 marked and not yet sent")
	}
	d.take()
	if !d.rest() {
		t.Fatal("the pump may not rest with nothing marked")
	}
	if woken() {
		t.Fatal("woken before anything changed")
	}
	d.mark(pod("web-2"))
	d.mark(pod("web-3"))
	if !woken() {
		t.Fatal("the first change did not wake the resting pump")
	}
	if woken() {
		t.Error("woken twice for one rest")
	}

	d.take()
	d.rest()
	d.poke() // a watch failed: no object marked, the banner must still come
	if !woken() {
		t.Fatal("a watch's failure did not wake the resting pump")
	}
	d.poke()
	if woken() {
		t.Error("a pump no longer resting was woken again")
	}
}
