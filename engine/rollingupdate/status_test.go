package rollingupdate_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	. "rollscope/engine/rollingupdate"
	"rollscope/model"
)

// TestDescribeFollowsTheUpdate reads the status from every controller the
// update touches at points along a real update.
func TestDescribeFollowsTheUpdate(t *testing.T) {
	w := newWorld(t)
	if _, ok := model.DescribeRCUpdate(w.rcPointers(), "web"); ok {
		t.Fatal("an RC with no update is described as updating")
	}
	w.request(fastRequest())
	w.run(func() bool { return w.sizes()["web"] == 2 }, time.Hour)
	for _, name := range []string{"web", "web-cdf1f4976f9636356016e5944114b87c"} {
		s, ok := model.DescribeRCUpdate(w.rcPointers(), name)
		if !ok || s.Old != "web" || s.Next != "web-cdf1f4976f9636356016e5944114b87c" || s.OldSize != 2 || s.Desired != 4 || s.Phase != PhaseRollout || s.Rollback {
			t.Errorf("mid-rollout from %s: %+v", name, s)
		}
		if s.Limits.Ceiling() != 5 || s.Limits.MinAvailable != 4 {
			t.Errorf("limits %+v, want at most 5 pods and 4 available", s.Limits)
		}
	}
	abort := fastRequest()
	abort.Rollback = true
	w.request(abort)
	w.run(func() bool { s, _ := model.DescribeRCUpdate(w.rcPointers(), "web"); return s.Rollback }, time.Hour)
	w.run(func() bool { return w.settledAt(oldImage) }, time.Hour)
	if _, ok := model.DescribeRCUpdate(w.rcPointers(), "web"); ok {
		t.Error("a finished rollback is still described as updating")
	}
}

func (w *world) rcPointers() []*corev1.ReplicationController {
	rcs := w.rcs()
	out := make([]*corev1.ReplicationController, len(rcs))
	for i := range rcs {
		out[i] = &rcs[i]
	}
	return out
}
