package sim

import (
	"time"
)

// timer is one pending wake-up: either a controller key to enqueue or a
// scripted function to run. seq keeps equal times in the order they were set.
type timer struct {
	at   time.Time
	seq  uint64
	ctrl *controllerState
	key  string
	fn   func()
}

// timerHeap is a min-heap of timers by (at, seq), which is a total order:
// timers leave it in one order whatever the heap's shape. It is
// container/heap's algorithm written for *timer, without an interface call
// for each comparison and swap (a 10,000-pod rollout sets about 90,000).
type timerHeap []*timer

func (h timerHeap) less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}

func (h *timerHeap) push(t *timer) {
	*h = append(*h, t)
	h.up(len(*h) - 1)
}

func (h *timerHeap) pop() *timer {
	old := *h
	n := len(old) - 1
	old[0], old[n] = old[n], old[0]
	old.down(0, n)
	t := old[n]
	old[n] = nil
	*h = old[:n]
	return t
}

func (h timerHeap) peek() *timer {
	if len(h) == 0 {
		return nil
	}
	return h[0]
}

func (h timerHeap) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

func (h timerHeap) down(i0, n int) {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 { // j1 < 0 after int overflow
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h.less(j2, j1) {
			j = j2 // right child
		}
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
