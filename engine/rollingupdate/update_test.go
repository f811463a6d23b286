package rollingupdate_test

import (
	"testing"
	"time"

	. "rollscope/engine/rollingupdate"
)

func fastRequest() Request {
	return Request{Image: newImage, UpdatePeriod: Duration(2 * time.Second), PollInterval: Duration(time.Second)}
}

func TestUpdateInTheEmbeddedClusterRenamesBack(t *testing.T) {
	w := newWorld(t)
	w.request(fastRequest())
	w.run(func() bool { return w.settledAt(newImage) }, time.Hour)
	if w.mostPods > replicas+maxSurge {
		t.Errorf("%d pods ran at once, more than replicas + maxSurge = %d", w.mostPods, replicas+maxSurge)
	}
	if len(w.failed) > 0 {
		t.Errorf("failed: %v", w.failed)
	}
	t.Logf("writes %d\n%s", w.client.writes.Load(), w.lines)
}
