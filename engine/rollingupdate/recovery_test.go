package rollingupdate

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCrashAfterEveryWrite kills the update after its Nth write, for every N
// a complete update makes, lets the cluster run on without it, then starts
// a new controller: the update always ends with one controller, web, on the
// new image at full size, every pod its own, and never more than replicas +
// maxSurge pods at once.
func TestCrashAfterEveryWrite(t *testing.T) {
	clean := newWorld(t)
	clean.request(fastRequest())
	clean.run(func() bool { return clean.settledAt(newImage) }, time.Hour)
	total := int(clean.client.writes.Load())
	if total < 15 {
		t.Fatalf("a complete update made only %d writes; the test would cover too little", total)
	}
	for n := 1; n < total; n++ {
		w := newWorld(t)
		atomic.StoreInt64(&w.client.budget, int64(n))
		w.request(fastRequest())
		w.run(w.client.crashed, time.Hour)
		// Dead for a while: the rest of the cluster goes on.
		w.runFor(30 * time.Second)
		atomic.StoreInt64(&w.client.budget, -1)
		w.ctrl.restart(w)
		w.cluster.Runner.Do(func() {})
		w.run(func() bool { return w.settledAt(newImage) }, time.Hour)
		if w.mostPods > replicas+maxSurge {
			t.Errorf("crash after write %d: %d pods ran at once, more than replicas + maxSurge = %d", n, w.mostPods, replicas+maxSurge)
		}
		if len(w.failed) > 0 {
			t.Errorf("crash after write %d: the update gave up: %v", n, w.failed)
		}
		if last := w.lines[len(w.lines)-1]; !strings.Contains(last, "rolling updated") {
			t.Errorf("crash after write %d: last line %q", n, last)
		}
	}
}
