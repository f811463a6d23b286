package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
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
	m = rcRun(m, cluster.Batch{}, press("y"))
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
	if m = rcRun(m, press("y")); m.top().Typing() || len(acts.aborted) != 0 {
		t.Errorf("y after the refusal did not just close the dialog (aborted %v)", acts.aborted)
	}
}

// rcUpdatePlanned is the RC view of a settled rc/web with its update to
// nginx:1.27 planned, the plan waiting for y.
func rcUpdatePlanned(t *testing.T) (Model, *rcFixture, *fakeRCActions) {
	t.Helper()
	acts := &fakeRCActions{fakeActions: oneContainer()}
	src := newRCFixture(rcSettled())
	m := newRCModel(t, src, acts, 120, 40)
	m = rcRun(m, openRC("web")...)
	m = rcRun(m, press("i"))
	m = rcRun(m, typed("nginx:1.27")...)
	return rcRun(m, press("enter")), src, acts
}

// The RC's image changed while its update's plan was read: y sends
// nothing, plans again from the same fields, and the next y sends that.
func TestRCUpdateRechecksTheControllerOnY(t *testing.T) {
	m, src, acts := rcUpdatePlanned(t)
	if !strings.Contains(plain(m), "send?") {
		t.Fatalf("no plan:\n%s", plain(m))
	}
	v := src.views["shop/web"]
	v.Old.Images, v.Old.Desired = []string{"nginx:1.26"}, 6
	src.views["shop/web"] = v
	m = rcRun(m, cluster.Batch{}, press("y"))
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
	m, src, acts := rcUpdatePlanned(t)
	src.views["shop/web"] = rcMidUpdate()
	m = rcRun(m, cluster.Batch{}, press("y"))
	if len(acts.started) != 0 || !strings.Contains(flat(m), "nothing sent: an update of rc/web has started") {
		t.Fatalf("started %+v:\n%s", acts.started, plain(m))
	}
	if m = rcRun(m, press("y")); m.top().Typing() || len(acts.started) != 0 {
		t.Errorf("y after the refusal did not just close the dialog (started %v)", acts.started)
	}
}

// Someone else cordoned the node while its cordon was read: y sends
// nothing and says so; the next y sends to the node as it is now.
func TestCordonRechecksTheNodeOnY(t *testing.T) {
	src := &recordingSource{fakeSource: midRollout()}
	m, acts := newNodeModel(t, src, nil)
	m = send(m, wide)
	m = runNodes(m, append(toNodes, press("c"))...)
	if !strings.Contains(plain(m), "kubectl cordon node-0") {
		t.Fatalf("no cordon confirmation:\n%s", plain(m))
	}
	src.nodes[0].Schedulable = false
	m = runNodes(m, cluster.Batch{}, press("y"))
	if len(acts.cordoned) != 0 {
		t.Fatalf("cordoned %v after the node changed under the plan", acts.cordoned)
	}
	if want := "nothing sent: node node-0 was cordoned since this was shown"; !strings.Contains(flat(m), want) {
		t.Errorf("the dialog does not say %q:\n%s", want, plain(m))
	}
	m = runNodes(m, press("y"))
	if len(acts.cordoned) != 1 {
		t.Errorf("the second y sent %v, want the cordon of node-0", acts.cordoned)
	}
}

// movingNodes previews a drain as the fake does until moved, then with the
// node cordoned and one more pod on it: what the API server says after
// someone else cordoned the node and a pod was scheduled there.
type movingNodes struct {
	*fakeNodeActions
	moved bool
}

func (f *movingNodes) PreviewDrain(ctx context.Context, n string, o action.DrainOptions) (action.DrainPreview, error) {
	p, err := f.fakeNodeActions.PreviewDrain(ctx, n, o)
	if f.moved {
		p.Cordoned = true
		p.Evict = append(p.Evict, "shop/frontend-7b7d5974f6-00009")
	}
	return p, err
}

// The drain's node moved on the API server while its preview was read: y
// previews it again, sends nothing, shows the fresh preview and says what
// changed; the next y drains.
func TestDrainRechecksItsPreviewOnY(t *testing.T) {
	src := &recordingSource{fakeSource: midRollout()}
	acts := &movingNodes{fakeNodeActions: &fakeNodeActions{fakeActions: oneContainer()}}
	m := newActionModel(t, nil, src, func(o *Options) { o.Actions = acts })
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 40})
	m = runNodes(m, append(toNodes, press("d"), press("space"), press("down"), press("space"), press("enter"))...)
	if !strings.Contains(plain(m), "kubectl drain node-0") {
		t.Fatalf("no drain confirmation:\n%s", plain(m))
	}
	acts.moved = true
	m = runNodes(m, press("y"))
	if len(acts.drained) != 0 {
		t.Fatalf("drained %v after the node changed under the preview", acts.drained)
	}
	for _, want := range []string{"nothing sent: node node-0 was cordoned; the drain of node node-0 would now also evict shop/frontend-7b7d5974f6-00009 since this was shown",
		"evicts 3 pods"} {
		if !strings.Contains(flat(m), want) {
			t.Errorf("the dialog does not say %q:\n%s", want, plain(m))
		}
	}
	m = runNodes(m, press("y"))
	if len(acts.drained) != 1 || acts.drained[0] != "node-0" {
		t.Errorf("the second y drained %v, want node-0", acts.drained)
	}
}

// The group changed while its roll's plan was read: a node joined, so y
// sends nothing and plans again; when every node became up to date there
// is nothing left to roll and y only closes.
func TestRollRechecksTheGroupOnY(t *testing.T) {
	src := &recordingSource{fakeSource: midRollout()}
	m, acts := newNodeModel(t, src, nil)
	m = send(m, wide)
	m = runNodes(m, append(toNodes, press("D"), press("enter"))...)
	src.nodes = append(src.nodes, cluster.NodeRow{Name: "node-4", Group: "pool-a", Ready: true, Schedulable: true})
	m = runNodes(m, cluster.Batch{}, press("y"))
	if len(acts.rolls) != 0 || !strings.Contains(flat(m), "nothing sent: node node-4 joined group pool-a since this was shown") {
		t.Fatalf("sent %+v:\n%s", acts.rolls, plain(m))
	}
	m = runNodes(m, press("y"))
	if len(acts.rolls) != 1 || acts.rolls[0].Roll.Size != 3 || acts.rolls[0].Roll.Outdated != 2 {
		t.Fatalf("the second y sent %+v, want the roll of 2 outdated nodes of 3", acts.rolls)
	}

	src = &recordingSource{fakeSource: midRollout()}
	m, acts = newNodeModel(t, src, nil)
	m = runNodes(send(m, wide), append(toNodes, press("D"), press("enter"))...)
	src.nodes[1].UpToDate = true
	m = runNodes(m, cluster.Batch{}, press("y"))
	if len(acts.rolls) != 0 || !strings.Contains(flat(m), "node node-1 is now up to date since this was shown — every node of group pool-a is up to date: nothing to roll") {
		t.Fatalf("sent %+v:\n%s", acts.rolls, plain(m))
	}
	if m = runNodes(m, press("y")); len(acts.rolls) != 0 || m.overlay != nil {
		t.Errorf("y after the refusal did not just close the dialog (sent %+v)", acts.rolls)
	}
}

// The roll ended while stopping it was asked: nothing to stop, nothing
// sent.
func TestStopRollRechecksTheRollOnY(t *testing.T) {
	src := rollingNodes()
	m, acts := newNodeModel(t, src, nil)
	m = runNodes(send(m, wide), append(toNodes, press("x"))...)
	if !strings.Contains(plain(m), "Stop the roll · group pool-a") {
		t.Fatalf("no stop confirmation:\n%s", plain(m))
	}
	for i := range src.nodes {
		src.nodes[i].Progress.Roll = model.NodeRoll{}
	}
	m = runNodes(m, cluster.Batch{}, press("y"))
	if len(acts.steers) != 0 || !strings.Contains(flat(m), "nothing sent: the roll of group pool-a has ended since this was shown — no roll of group pool-a is in progress to stop") {
		t.Fatalf("sent %+v:\n%s", acts.steers, plain(m))
	}
}

// Stopping a roll is the brake: a roll that only moved on to another step
// while the question was read is still stopped.
func TestStopRollGoesWhileTheRollIsActive(t *testing.T) {
	src := rollingNodes()
	m, acts := newNodeModel(t, src, nil)
	m = runNodes(send(m, wide), append(toNodes, press("x"))...)
	for i := range src.nodes[:2] {
		src.nodes[i].Progress.Roll.State = model.RollRunning
	}
	runNodes(m, cluster.Batch{}, press("y"))
	if len(acts.steers) != 1 || acts.steers[0].Action != action.StopRoll {
		t.Errorf("sent %+v, want the stop", acts.steers)
	}
}
