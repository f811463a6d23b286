package ui

import (
	"strings"
	"testing"

	"rollscope/model"
)

// flat is the screen with its line breaks and runs of spaces made one
// space, so that a wrapped sentence reads whole.
func flat(m Model) string { return strings.Join(strings.Fields(plain(m)), " ") }

// On a live cluster the RC's update moves on while the operator reads the
// abort's plan: when it reached the rename (nothing old left to restore),
// y sends nothing, says what changed and why there is nothing to abort.
func TestRCAbortRechecksTheUpdateOnY(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	src := newRCFixture(rcMidUpdate())
	m := newRCModel(t, src, acts, 120, 40)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("x"))
	if !strings.Contains(flat(m), "web grows back to 4 replicas") {
		t.Fatalf("no abort plan:\n%s", plain(m))
	}
	v := src.views["shop/web"]
	v.Phase = model.RCPhaseRename
	src.views["shop/web"] = v
	m = rcRun(m, model.Batch{}, press("y"))
	if len(acts.aborted) != 0 {
		t.Fatalf("aborted %v after the update reached its rename", acts.aborted)
	}
	for _, want := range []string{"nothing sent: the update moved from phase rollout to rename since this plan was shown",
		"nothing old left to restore"} {
		if !strings.Contains(flat(m), want) {
			t.Errorf("the dialog does not say %q:\n%s", want, plain(m))
		}
	}
	if strings.Contains(flat(m), "y abort") {
		t.Errorf("the dialog still offers y to abort:\n%s", plain(m))
	}
	if m = rcRun(m, press("y")); m.rc.Typing() || len(acts.aborted) != 0 {
		t.Errorf("y after the refusal did not just close the dialog (aborted %v)", acts.aborted)
	}
}

// The RC's image changed while its update's plan was read: y sends
// nothing, plans again from the same fields, and the next y sends that.
func TestRCUpdateRechecksTheControllerOnY(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	src := newRCFixture(rcSettled())
	m := newRCModel(t, src, acts, 120, 40)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("i"))
	m = rcRun(m, typed("nginx:1.27")...)
	m = rcRun(m, press("enter"))
	if !strings.Contains(plain(m), "send?") {
		t.Fatalf("no plan:\n%s", plain(m))
	}
	v := src.views["shop/web"]
	v.Old.Images, v.Old.Desired = []string{"nginx:1.26"}, 6
	src.views["shop/web"] = v
	m = rcRun(m, model.Batch{}, press("y"))
	if len(acts.started) != 0 {
		t.Fatalf("started %+v although the controller changed under the plan", acts.started)
	}
	for _, want := range []string{"nothing sent: rc/web's images became nginx:1.26; replicas went from 4 to 6 since this plan was shown",
		"y sends the new plan", "send?"} {
		if !strings.Contains(flat(m), want) {
			t.Errorf("the dialog does not say %q:\n%s", want, plain(m))
		}
	}
	if len(acts.planned) != 2 {
		t.Errorf("planned %d times, want the plan made again", len(acts.planned))
	}
	m = rcRun(m, press("y"))
	if len(acts.started) != 1 || acts.started[0].Image != "nginx:1.27" {
		t.Errorf("the second y started %+v, want the update to nginx:1.27", acts.started)
	}
}

// An update started by someone else while the plan was read: nothing is
// sent and only closing is offered.
func TestRCUpdateRefusedWhenAnUpdateStartedMeanwhile(t *testing.T) {
	acts := &fakeRCActions{fakeActions: oneContainer()}
	src := newRCFixture(rcSettled())
	m := newRCModel(t, src, acts, 120, 40)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("i"))
	m = rcRun(m, typed("nginx:1.27")...)
	m = rcRun(m, press("enter"))
	src.views["shop/web"] = rcMidUpdate()
	m = rcRun(m, model.Batch{}, press("y"))
	if len(acts.started) != 0 || !strings.Contains(flat(m), "nothing sent: an update of rc/web has started") {
		t.Fatalf("started %+v:\n%s", acts.started, plain(m))
	}
	if m = rcRun(m, press("y")); m.rc.Typing() || len(acts.started) != 0 {
		t.Errorf("y after the refusal did not just close the dialog (started %v)", acts.started)
	}
}
