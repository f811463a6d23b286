package rollingupdate_test

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	. "rollscope/engine/rollingupdate"
)

// TestAbortMidRollout asks for a rollback once pods of both versions run:
// web grows back to its original size on the old image and the next
// controller goes, within replicas + maxSurge pods.
func TestAbortMidRollout(t *testing.T) {
	w := newWorld(t)
	w.request(fastRequest())
	w.run(func() bool { return w.sizes()["web"] <= 2 }, time.Hour)
	abort := fastRequest()
	abort.Rollback = true
	w.request(abort)
	w.run(func() bool { return w.settledAt(oldImage) }, time.Hour)
	if w.mostPods > replicas+maxSurge {
		t.Errorf("%d pods ran at once, more than replicas + maxSurge = %d", w.mostPods, replicas+maxSurge)
	}
	if !slices.Contains(w.lines, `Setting "web" replicas to 4`) {
		t.Errorf("no 'Setting \"web\" replicas to 4' line in:\n%s", strings.Join(w.lines, "\n"))
	}
	if len(w.failed) > 0 {
		t.Errorf("failed: %v", w.failed)
	}
}

// TestCrashDuringAbort kills a rollback after each of its writes and starts a
// new controller: it always ends back on the old image at full size.
func TestCrashDuringAbort(t *testing.T) {
	start := func() *world {
		w := newWorld(t)
		w.request(fastRequest())
		w.run(func() bool { return w.sizes()["web"] <= 2 }, time.Hour)
		abort := fastRequest()
		abort.Rollback = true
		w.request(abort)
		return w
	}
	clean := start()
	before := clean.client.writes.Load()
	clean.run(func() bool { return clean.settledAt(oldImage) }, time.Hour)
	total := int(clean.client.writes.Load() - before)
	if total < 5 {
		t.Fatalf("a rollback made only %d writes", total)
	}
	for n := 1; n < total; n++ {
		w := start()
		limit := w.client.writes.Load() + int64(n)
		atomic.StoreInt64(&w.client.budget, limit)
		w.run(w.client.crashed, time.Hour)
		w.runFor(30 * time.Second)
		atomic.StoreInt64(&w.client.budget, -1)
		w.ctrl.restart(w)
		w.cluster.Runner.Do(func() {})
		w.run(func() bool { return w.settledAt(oldImage) }, time.Hour)
		if w.mostPods > replicas+maxSurge {
			t.Errorf("crash after rollback write %d: %d pods at once", n, w.mostPods)
		}
	}
}

// TestAbortInTheRenamePhaseIsRefused: once the old controller is gone, every
// pod runs the new version; an abort says a new update is what is wanted,
// changes nothing, and the update still finishes.
func TestAbortInTheRenamePhaseIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		// after is the last write before the abort.
		after string
	}{
		{"old controller deleted", "delete web"},
		{"copy made, next not yet deleted", "create web"},
		{"next deleted, copy not yet in charge", "delete web-cdf1f4976f9636356016e5944114b87c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.client.crashAfter = func(write string) bool { return write == tc.after }
			w.request(fastRequest())
			w.run(w.client.crashed, time.Hour)
			u := &Updater{Client: w.cluster.Client, Namespace: "default", Now: w.env.Clock.Now}
			before := w.describe()
			req := fastRequest()
			req.Old, req.Rollback = "web", true
			_, err := u.Step(context.Background(), req, &Session{})
			if !IsBadRequest(err) || !strings.Contains(err.Error(), "start a new rolling update with the old image") {
				t.Fatalf("abort in the rename phase: got %v, want a refusal that points to a new update", err)
			}
			if after := w.describe(); after != before {
				t.Errorf("the refused abort changed the cluster:\n%s\n---\n%s", before, after)
			}
			w.client.crashAfter = nil
			atomic.StoreInt64(&w.client.budget, -1)
			w.cluster.Runner.Do(func() {})
			w.run(func() bool { return w.settledAt(newImage) }, time.Hour)
		})
	}
}

func (w *world) sizes() map[string]int32 {
	out := map[string]int32{}
	for _, rc := range w.rcs() {
		out[rc.Name] = Size(&rc)
	}
	return out
}
