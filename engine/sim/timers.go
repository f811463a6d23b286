package sim

import (
	"container/heap"
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

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(*timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return t
}

func (h *timerHeap) push(t *timer) { heap.Push(h, t) }
func (h *timerHeap) pop() *timer   { return heap.Pop(h).(*timer) }
func (h timerHeap) peek() *timer {
	if len(h) == 0 {
		return nil
	}
	return h[0]
}
