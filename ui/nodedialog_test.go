package ui

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/overlays/nodedialog"
	"rollscope/ui/screen"
)

// fakeNodeActions records the node requests; failOn makes the request on
// that node fail.
type fakeNodeActions struct {
	*fakeActions
	cordoned, uncordoned, drained []string
	drainOpts                     []action.DrainOptions
	rolls                         []action.Request
	steers                        []action.Request
	failOn                        string
}

// Send goes one node at a time, as the contract asks, and says which nodes
// were done when one fails.
func (f *fakeNodeActions) Send(ctx context.Context, r action.Request) (string, error) {
	switch r.Action {
	case action.Cordon, action.Uncordon, action.Drain:
		for i, n := range r.Nodes {
			if n == f.failOn {
				err := errors.New(`cannot cordon node "` + n + `": no such node`)
				if i == 0 {
					return "", err
				}
				return "", fmt.Errorf("%w — done for %s; not sent for %s", err, strings.Join(r.Nodes[:i], ", "), strings.Join(r.Nodes[i+1:], ", "))
			}
			switch r.Action {
			case action.Cordon:
				f.cordoned = append(f.cordoned, n)
			case action.Uncordon:
				f.uncordoned = append(f.uncordoned, n)
			case action.Drain:
				f.drained, f.drainOpts = append(f.drained, n), append(f.drainOpts, r.Drain)
			}
		}
		if r.Action == action.Drain {
			return "requested — the Nodes pane shows its progress", nil
		}
		return "ok", nil
	case action.RollGroup:
		f.rolls = append(f.rolls, r)
		return "requested", nil
	case action.NextStep, action.PauseRoll, action.StopRoll:
		f.steers = append(f.steers, r)
		return "ok", nil
	}
	return f.fakeActions.Send(ctx, r)
}

func (f *fakeNodeActions) PreviewDrain(_ context.Context, n string, o action.DrainOptions) (action.DrainPreview, error) {
	p := action.DrainPreview{
		Evict:   []string{"shop/frontend-7b7d5974f6-00001", "shop/frontend-5d9c8f7b6c-00001"},
		Budgets: []string{"PodDisruptionBudget shop/frontend allows 1 disruptions (9 healthy, 8 needed)"},
		Blocked: []string{"shop/frontend-5d9c8f7b6c-00001: PodDisruptionBudget shop/frontend allows 1 disruptions (9 healthy, 8 needed)"},
		Refusals: []action.PodGroup{{Message: "Pods with local storage (use --delete-emptydir-data to override)",
			Pods: []string{"shop/cache-0"}}},
	}
	if o.IgnoreDaemonSets {
		p.Warnings = []action.PodGroup{{Message: "ignoring DaemonSet-managed Pods", Pods: []string{"kube-system/fluentd-x2"}}}
	}
	if o.DeleteEmptyDirData {
		p.Refusals = nil
	}
	return p, nil
}

func (f *fakeNodeActions) PlanRoll(_ string, r action.RollSettings) (string, error) {
	if r.MaxUnavailable == "150%" {
		return "", errors.New("maxUnavailable 150% is outside 0%–100% of the group's nodes (write at most 100%, or a node count)")
	}
	return "2 outdated nodes, 1 at a time", nil
}

// rollingNodes is the fixture with pool-a in a stepped roll waiting for n
// and node-1 draining, held back by a PodDisruptionBudget.
func rollingNodes() *recordingSource {
	src := midRollout()
	roll := model.NodeRoll{ID: "r1", State: model.RollWaiting, Stepping: true, Count: 2}
	src.nodes[0].Progress.Roll = roll
	src.nodes[1].Drain = "blocked"
	src.nodes[1].Progress = model.NodeProgress{DrainRequested: true, PodsLeft: 2, PodsLeftKnown: true,
		Blocked: []string{"shop/frontend-5d9c8f7b6c-00001: PodDisruptionBudget shop/frontend allows 0 disruptions (8 healthy, 8 needed)"}}
	roll.Step = "draining"
	src.nodes[1].Progress.Roll = roll
	return &recordingSource{fakeSource: src}
}

func newNodeModel(t *testing.T, src Source, edit func(*Options)) (Model, *fakeNodeActions) {
	t.Helper()
	acts := &fakeNodeActions{fakeActions: oneContainer()}
	m := newActionModel(t, nil, src, func(o *Options) {
		o.Actions = acts
		if edit != nil {
			edit(o)
		}
	})
	return m, acts
}

// runNodes sends msgs and feeds back what the node actions' commands
// return, as the Bubble Tea runtime does.
func runNodes(m Model, msgs ...tea.Msg) Model {
	return runFeeding(m, func(msg tea.Msg) bool {
		switch msg.(type) {
		case nodedialog.Previewed, screen.Sent:
			return true
		}
		return false
	}, msgs...)
}

// runFeeding sends msgs and, as the runtime does, runs the commands they
// return, feeding back the results feed picks (the others would start
// timers or real I/O).
func runFeeding(m Model, feed func(tea.Msg) bool, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		next, cmd := m.Update(msg)
		m = next.(Model)
		for cmd != nil {
			out := cmd()
			cmd = nil
			if feed(out) {
				next, cmd = m.Update(out)
				m = next.(Model)
			}
		}
	}
	return m
}

var toNodes = []tea.Msg{press("tab"), press("tab")}

// wide is a terminal wide enough for a whole toast line.
var wide = tea.WindowSizeMsg{Width: 220, Height: 40}

func TestDrainDialogPreviewsAndSendsTheChosenOptions(t *testing.T) {
	src := rollingNodes()
	m, acts := newNodeModel(t, src, nil)
	m = runNodes(m, append(toNodes, press("j"), press("d"))...)
	s := plain(m)
	for _, want := range []string{"Drain · node-1", "[x]", "evicts 2 pods", "will wait: PodDisruptionBudget",
		"refused: cannot delete Pods with local storage", "ignoring DaemonSet-managed Pods"} {
		if !strings.Contains(s, want) {
			t.Errorf("drain dialog lacks %q:\n%s", want, s)
		}
	}
	compareGolden(t, "dialog-drain-preview-80x24", s+"\n")
	// Allowing emptyDir data takes the refusal away at once.
	m = runNodes(m, press("down"), press("space"))
	if s := plain(m); strings.Contains(s, "refused:") {
		t.Errorf("the preview still refuses the emptyDir pod with --delete-emptydir-data:\n%s", s)
	}
	// A bad timeout is refused before anything is sent.
	m = runNodes(m, press("down"), press("down"), press("down"), press("down"))
	m = runNodes(m, append(typed("soon"), press("enter"))...)
	if s := plain(m); !strings.Contains(s, `timeout "soon" is not a duration`) || len(acts.drained) != 0 {
		t.Fatalf("timeout soon accepted (sent %v):\n%s", acts.drained, s)
	}
	m = runNodes(m, append([]tea.Msg{ctrlU}, append(typed("5m"), press("enter"))...)...)
	if s := plain(send(m, wide)); !strings.Contains(s, "kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data --timeout=5m0s") {
		t.Fatalf("the confirmation does not show the kubectl command:\n%s", s)
	}
	m = runNodes(m, press("y"))
	if len(acts.drained) != 1 || acts.drained[0] != "node-1" || !acts.drainOpts[0].DeleteEmptyDirData || acts.drainOpts[0].Timeout.String() != "5m0s" {
		t.Fatalf("sent %v %+v, want node-1 with emptyDir data deleted and a 5m timeout", acts.drained, acts.drainOpts)
	}
	if !strings.Contains(plain(m), "✔ drain node-1: requested") {
		t.Errorf("no toast for the drain:\n%s", plain(m))
	}
	if len(src.actions) == 0 || !strings.Contains(src.actions[len(src.actions)-1].Message, "drain node-1: requested") {
		t.Errorf("the timeline does not record the drain: %+v", src.actions)
	}
}

func TestRollDialogRefusesBadSettingsAndSendsAStepRoll(t *testing.T) {
	src := &recordingSource{fakeSource: midRollout()}
	m, acts := newNodeModel(t, src, func(o *Options) { o.RollDefaults = action.RollDefaults{Step: true} })
	m = runNodes(m, append(toNodes, press("D"))...)
	s := plain(m)
	if !strings.Contains(s, "Roll node group pool-a · 1 of 2 nodes outdated") || !strings.Contains(s, "[x]") {
		t.Fatalf("roll dialog does not name the group or start stepped with --step:\n%s", s)
	}
	compareGolden(t, "dialog-roll-80x24", s+"\n")
	m = runNodes(m, press("down"))
	m = runNodes(m, append(typed("150%"), press("enter"))...)
	if s := plain(m); !strings.Contains(s, "maxUnavailable 150% is outside 0%–100%") || len(acts.rolls) != 0 {
		t.Fatalf("150%% not refused before sending (sent %v):\n%s", acts.rolls, s)
	}
	m = runNodes(m, append([]tea.Msg{ctrlU}, append(typed("1"), press("enter"))...)...)
	compareGolden(t, "dialog-roll-confirm-80x24", plain(m)+"\n")
	if s := plain(send(m, wide)); !strings.Contains(s, "kops rolling-update cluster --instance-group pool-a --yes --max-unavailable 1 --node-interval 15s --interactive") {
		t.Fatalf("confirmation lacks the kops command:\n%s", s)
	}
	runNodes(m, press("y"))
	want := action.Request{Action: action.RollGroup, Name: "pool-a",
		Roll: action.RollSettings{MaxUnavailable: "1", Interval: 15e9, Step: true, Size: 2, Outdated: 1}}
	if len(acts.rolls) != 1 || !reflect.DeepEqual(acts.rolls[0], want) {
		t.Fatalf("sent %+v, want %+v", acts.rolls, want)
	}
}

// The node vanished while its dialog was open: nothing is sent, and the
// console says why.
func TestANodeThatVanishedIsNotDrained(t *testing.T) {
	src := rollingNodes()
	m, acts := newNodeModel(t, src, nil)
	m = runNodes(m, append(toNodes, press("j"), press("j"), press("d"), press("enter"))...)
	src.nodes = append(src.nodes[:2], src.nodes[3:]...) // node-2 is gone
	m = runNodes(m, cluster.Batch{})
	if s := plain(m); !strings.Contains(s, "node-2 no longer exists") {
		t.Errorf("the dialog does not say the node is gone:\n%s", s)
	}
	m = runNodes(m, press("y"))
	if len(acts.drained) != 0 {
		t.Fatalf("drained %v, a node that no longer exists", acts.drained)
	}
	if s := plain(send(m, wide)); !strings.Contains(s, "node-2 no longer exists") || !strings.Contains(s, "nothing sent") {
		t.Errorf("no toast saying nothing was sent:\n%s", s)
	}
}

// Cordoning marked nodes one by one: when one fails, the message says
// which were done and which were not sent.
func TestCordonMarkedNodesSaysWhatWasDone(t *testing.T) {
	src := rollingNodes()
	m, acts := newNodeModel(t, src, nil)
	acts.failOn = "node-2"
	// m marks and moves on: node-0, node-2 (skipping node-1), node-3.
	m = runNodes(m, append(toNodes, press("m"), press("j"), press("m"), press("m"), press("c"))...)
	if s := plain(m); !strings.Contains(s, "kubectl cordon node-0 node-2 node-3") {
		t.Fatalf("the confirmation does not list the marked nodes:\n%s", s)
	}
	m = runNodes(m, press("y"))
	s := plain(send(m, wide))
	if len(acts.cordoned) != 1 || !strings.Contains(s, "done for node-0; not sent for node-3") {
		t.Errorf("cordoned %v; screen:\n%s", acts.cordoned, s)
	}
}

// In the Nodes pane space and x steer the selected group's roll; elsewhere
// they keep pausing the clock and aborting the rollout.
func TestSpaceAndXSteerTheRollOnlyInTheNodesPane(t *testing.T) {
	src := rollingNodes()
	clock := &fakeClock{speed: 4}
	m, acts := newNodeModel(t, src, func(o *Options) { o.Embedded = clock })
	m = runNodes(m, append(toNodes, press("space"))...)
	if len(acts.steers) != 1 || acts.steers[0].Action != action.PauseRoll || acts.steers[0].ResumeRoll || clock.paused {
		t.Fatalf("space in Nodes: steers %v, clock paused %v; want the roll paused, the clock running", acts.steers, clock.paused)
	}
	m = runNodes(m, press("n"))
	if len(acts.steers) != 2 || acts.steers[1].Action != action.NextStep {
		t.Fatalf("n: steers %v, want continue", acts.steers)
	}
	m = runNodes(m, press("x"))
	if s := plain(m); !strings.Contains(s, "Stop the roll · group pool-a") {
		t.Fatalf("x in Nodes does not offer to stop the roll:\n%s", s)
	}
	m = runNodes(m, press("y"))
	if acts.steers[len(acts.steers)-1].Action != action.StopRoll {
		t.Fatalf("steers %v, want stop last", acts.steers)
	}
	m = runNodes(m, press("tab"), press("space"), press("x"))
	if !clock.paused {
		t.Error("space outside the Nodes pane does not pause the clock")
	}
	if s := plain(m); !strings.Contains(s, "Abort rollout") {
		t.Errorf("x outside the Nodes pane is not the rollout abort:\n%s", s)
	}
}

func TestNodesPaneShowsPodsLeftBlockingBudgetsAndTheRoll(t *testing.T) {
	m, _ := newNodeModel(t, rollingNodes(), nil)
	m = runNodes(m, append(toNodes, press("j"))...)
	compareGolden(t, "nodes-roll-80x24", plain(m)+"\n")
	checkFits(t, m.Render(), 80, 24)
	s := plain(m)
	for _, want := range []string{"roll pool-a: waiting · stepped · 0/2 replaced · 1 draining", "blocked 2 left",
		"node-1 waits: PodDisruptionBudget", "allows 0 disruptions (8"} {
		if !strings.Contains(s, want) {
			t.Errorf("nodes pane lacks %q:\n%s", want, s)
		}
	}
}

func TestReadOnlyDisablesTheNodeKeysAndSaysWhy(t *testing.T) {
	m, acts := newNodeModel(t, rollingNodes(), func(o *Options) { o.ReadOnly = true })
	for _, k := range []string{"c", "d", "D", "n"} {
		m = runNodes(m, append(toNodes, press(k))...)
		if s := plain(m); !strings.Contains(s, "read-only") {
			t.Errorf("%s under --read-only does not say why it does nothing:\n%s", k, s)
		}
		m = runNodes(m, press("tab"), press("tab"), press("tab"))
	}
	if len(acts.cordoned)+len(acts.drained)+len(acts.rolls)+len(acts.steers) != 0 {
		t.Errorf("read-only sent %+v", acts)
	}
	if ansi.Strip(m.Render()) == "" {
		t.Error("empty screen")
	}
}

// A drain that timed out says so in the pane and in the timeline, after the
// block it waited on.
func TestATimedOutDrainSaysWhyInThePaneAndTheTimeline(t *testing.T) {
	src := rollingNodes()
	m, _ := newNodeModel(t, src, nil)
	src.nodes[1].Drain = "failed"
	src.nodes[1].Progress = model.NodeProgress{DrainRequested: true,
		DrainMessage: "drain did not complete within 10s; the node stays cordoned"}
	m = runNodes(m, append(toNodes, press("j"), cluster.Batch{})...)
	s := plain(m)
	for _, want := range []string{"failed", "node-1: drain did not complete within 10s; the node stays cordoned"} {
		if !strings.Contains(s, want) {
			t.Errorf("nodes pane lacks %q:\n%s", want, s)
		}
	}
	var notes []string
	for _, e := range src.actions {
		if e.Object == "node/node-1" {
			notes = append(notes, e.Message)
		}
	}
	last := src.actions[len(src.actions)-1]
	if len(notes) != 2 || !strings.HasPrefix(notes[0], "drain blocked: ") ||
		!strings.Contains(last.Message, "drain failed: drain did not complete within 10s") || !last.Warning {
		t.Errorf("timeline notes for node-1 %q: want the block, then one warning saying the drain failed and why", notes)
	}
}

// With --yes a cordon is sent on c and a drain on enter, without y.
func TestYesSendsNodeRequestsWithoutAskingForY(t *testing.T) {
	m, acts := newNodeModel(t, rollingNodes(), func(o *Options) { o.AssumeYes = true })
	m = runNodes(m, append(toNodes, press("c"))...)
	if len(acts.cordoned) != 1 || acts.cordoned[0] != "node-0" {
		t.Fatalf("--yes: c cordoned %v, want node-0 at once", acts.cordoned)
	}
	m = runNodes(m, press("d"))
	if s := plain(m); !strings.Contains(s, "enter send (--yes)") {
		t.Errorf("the drain form does not say enter sends:\n%s", s)
	}
	runNodes(m, press("enter"))
	if len(acts.drained) != 1 {
		t.Errorf("--yes: enter in the drain form drained %v, want node-0", acts.drained)
	}
}
