package sim

import (
	"math/rand"
	"slices"
	"testing"
	"time"
)

// Timers leave the heap earliest first, and in the order they were set at
// one instant, however pushes and pops interleave.
func TestTimerHeapPopsInTimeThenSetOrder(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var h timerHeap
	var pending []*timer
	seq := uint64(0)
	for range 20000 {
		if r.Intn(3) > 0 || len(h) == 0 {
			seq++
			tm := &timer{at: base.Add(time.Duration(r.Intn(50)) * time.Millisecond), seq: seq}
			h.push(tm)
			pending = append(pending, tm)
			continue
		}
		first := slices.MinFunc(pending, func(a, b *timer) int {
			if c := a.at.Compare(b.at); c != 0 {
				return c
			}
			return int(a.seq) - int(b.seq)
		})
		if got := h.pop(); got != first {
			t.Fatalf("popped %v #%d, want %v #%d", got.at, got.seq, first.at, first.seq)
		}
		pending = slices.DeleteFunc(pending, func(x *timer) bool { return x == first })
	}
	if h.peek() == nil && len(pending) > 0 {
		t.Fatal("timers were lost")
	}
}
