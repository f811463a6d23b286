package controltest

import (
	"context"
	"time"
)

// RunUntil drives the watched controller as the simulation runner does:
// every key that falls due by until, earliest first, is synced with the
// clock moved to its due time, and settle (when not nil) runs after each
// sync so that the caches catch up before the next. The clock is left at
// until. A sync error fails the test.
func (h *Harness) RunUntil(until time.Time, settle func()) {
	h.T.Helper()
	if h.controller == nil {
		h.T.Fatal("RunUntil before Watch: the harness has no controller to run")
	}
	for {
		key, at, ok := h.Queue.Next(until)
		if !ok {
			break
		}
		if at.After(h.Clock.Now()) {
			h.Clock.SetTime(at)
		}
		if err := h.controller.Sync(context.Background(), key); err != nil {
			h.T.Fatalf("Sync(%q) at %s: %v", key, h.Clock.Now().Format(time.RFC3339Nano), err)
		}
		if settle != nil {
			settle()
		}
	}
	h.Clock.SetTime(until)
}
