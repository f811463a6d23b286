package rollingupdate_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	. "rollscope/engine/rollingupdate"
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

// TestHeadlessRunKilledAfterEveryWriteThenRunAgain is the command-line story:
// `rollscope rolling-update web --image=...` is killed after its Nth write,
// for every N, and the same command run again finishes the update.
func TestHeadlessRunKilledAfterEveryWriteThenRunAgain(t *testing.T) {
	run := func(w *world, budget int64) error {
		client := &crashingClient{Interface: w.cluster.Client, budget: budget}
		u := &Updater{Client: client, Namespace: "default", Now: w.env.Clock.Now}
		req := fastRequest()
		req.Old = "web"
		var out strings.Builder
		return Run(context.Background(), u, req, time.Minute, VirtualClock{Runner: w.cluster.Runner}, &out)
	}
	for n := int64(1); ; n++ {
		w := newWorld(t)
		err := run(w, n)
		if err == nil {
			if n < 15 {
				t.Fatalf("the update finished within %d writes; the test would cover too little", n)
			}
			break
		}
		if !errors.Is(err, errCrashed) {
			t.Fatalf("killed after write %d: got %v", n, err)
		}
		w.runFor(30 * time.Second)
		if err := run(w, -1); err != nil {
			t.Fatalf("run again after write %d: %v", n, err)
		}
		w.run(func() bool { return w.settledAt(newImage) }, time.Minute)
		if w.mostPods > replicas+maxSurge {
			t.Errorf("killed after write %d: %d pods ran at once, more than replicas + maxSurge = %d", n, w.mostPods, replicas+maxSurge)
		}
	}
}

// TestCustomDeploymentKeySurvivesLosingTheRequest: the request, and with it
// --deployment-label-key, goes with the old controller; the rename still
// finishes from what the next controller carries.
func TestCustomDeploymentKeySurvivesLosingTheRequest(t *testing.T) {
	for _, after := range []string{"delete web", "create web", "delete web-cdf1f4976f9636356016e5944114b87c"} {
		t.Run(after, func(t *testing.T) {
			w := newWorld(t)
			w.client.crashAfter = func(write string) bool { return write == after }
			req := fastRequest()
			req.DeploymentKey = "track"
			w.request(req)
			w.run(w.client.crashed, time.Hour)
			w.runFor(30 * time.Second)
			w.client.crashAfter = nil
			atomic.StoreInt64(&w.client.budget, -1)
			w.ctrl.restart(w)
			w.cluster.Runner.Do(func() {})
			w.run(func() bool { return w.settledAt(newImage) }, time.Hour)
			rc := w.rcs()[0]
			if rc.Spec.Selector["track"] == "" {
				t.Errorf("selector %v lacks the deployment key track", rc.Spec.Selector)
			}
		})
	}
}
