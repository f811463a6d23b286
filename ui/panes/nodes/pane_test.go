package nodes

import (
	"strings"
	"testing"
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

func newPane(t *testing.T, acts screen.Actions) (*Pane, *screen.Screen) {
	t.Helper()
	s := uitest.NewScreen(uitest.MidRollout(), acts)
	p := New(s)
	uitest.Focused(p, 100, 10)
	return p, s
}

// The nodes with readiness, cordon, version and drain; the selected
// node's row is the cursor's.
func TestListsTheNodes(t *testing.T) {
	p, _ := newPane(t, nil)
	out := uitest.Plain(p.View())
	for _, want := range []string{"NAME", "node-0", "node-1", "cordoned", "evicting 1/2"} {
		if !strings.Contains(out, want) {
			t.Errorf("nodes pane lacks %q:\n%s", want, out)
		}
	}
	uitest.Keys[screen.Pane](p, "down")
	if n, ok := p.Selected(); !ok || n.Name != "node-1" {
		t.Errorf("down selected %+v", n)
	}
}

// m marks nodes; c, C and d act on the marked ones, else the selected one.
func TestMarksAreWhatTheNodeKeysActOn(t *testing.T) {
	p, _ := newPane(t, &uitest.Actions{})
	if got := names(p.Targets()); got != "node-0" {
		t.Errorf("unmarked, the keys act on %s", got)
	}
	uitest.Keys[screen.Pane](p, "m", "down", "m")
	if got := names(p.Targets()); got != "node-0,node-1" {
		t.Errorf("marked, the keys act on %s", got)
	}
	ov, _, ok := p.Key(uitest.Press("c"), true)
	if !ok || ov == nil {
		t.Fatal("c in the Nodes pane opened no dialog")
	}
	ov.SetSize(100, 20)
	if out := uitest.Plain(ov.View()); !strings.Contains(out, "node-0") || !strings.Contains(out, "node-1") {
		t.Errorf("the cordon dialog does not name the marked nodes:\n%s", out)
	}
}

// Outside the Nodes pane the node keys say where they work; with no roll
// in progress n and x say what to do instead; other keys are not node
// keys, and keep their global meaning.
func TestNodeKeysSayWhereTheyWork(t *testing.T) {
	p, s := newPane(t, &uitest.Actions{})
	if _, _, ok := p.Key(uitest.Press("c"), false); !ok || !strings.Contains(s.Toast, "press tab until Nodes is focused") {
		t.Errorf("c outside the pane: toast %q", s.Toast)
	}
	if _, _, ok := p.Key(uitest.Press("n"), false); !ok || !strings.Contains(s.Toast, "no node-group roll in progress") {
		t.Errorf("n with no roll: toast %q", s.Toast)
	}
	if _, _, ok := p.Key(uitest.Press("x"), true); !ok || !strings.Contains(s.Toast, "no roll in progress") {
		t.Errorf("x in the pane with no roll: toast %q", s.Toast)
	}
	if _, _, ok := p.Key(uitest.Press("x"), false); ok {
		t.Error("x outside the pane was taken from the rollout's abort")
	}
	if _, _, ok := p.Key(uitest.Press("space"), true); ok {
		t.Error("space with no roll was taken from the clock")
	}
}

func names(nodes []string) string { return strings.Join(nodes, ",") }

// The roll line says what the roll waits for between nodes, and the node
// a surge took out of its group reads detached in the ROLL column.
func TestTheRollLineSaysWhatTheRollWaitsFor(t *testing.T) {
	running := model.NodeProgress{Roll: model.NodeRoll{State: model.RollRunning, Count: 3, Size: 3}}
	failing := func(in time.Duration) model.NodeProgress {
		p := running
		p.Roll.FailsAt = uitest.T0.Add(in)
		return p
	}
	for _, tc := range []struct {
		name      string
		rows      []cluster.NodeRow
		want      []string
		available int32 // shop/frontend's available pods, of 4 (0: all 4)
	}{
		{"a replacement booting", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: running},
			{Name: "a-2", Group: "a", Ready: true, Detached: true, Progress: running},
			{Name: "a-3", Group: "a", Ready: true},
			{Name: "a-4", Group: "a"},
		}, []string{"roll a: running · 1/3 replaced · waits for a-4 to be Ready", "detached", "queued"}, 0},
		{"a replacement not yet launched", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: running},
			{Name: "a-2", Group: "a", Ready: true, Detached: true, Progress: running},
			{Name: "a-3", Group: "a", Ready: true},
		}, []string{"roll a: running · 1/3 replaced · waits for 1 more Ready node (2 of 3)"}, 0},
		{"a deployment's pods evicted", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: running},
			{Name: "a-2", Group: "a", Ready: true, Progress: running},
			{Name: "a-3", Group: "a", Ready: true},
		}, []string{"roll a: running · 1/3 replaced · waits for deployment shop/frontend to be available (3 of 4)"}, 3},
		{"behind the control plane's roll", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: running},
			{Name: "cp-1", Group: "cp", Ready: true, Progress: model.NodeProgress{Roll: model.NodeRoll{State: model.RollRunning, Count: 1, Size: 1, Role: "ControlPlane"}}},
		}, []string{"roll a: running · 2/3 replaced · waits for the roll of group cp", "roll cp: running · 0/1 replaced —"}, 0},
		// The roll wrote when its failing validation fails it.
		{"a replacement booting, the roll's deadline on a node", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: failing(14*time.Minute + 20*time.Second)},
			{Name: "a-2", Group: "a", Ready: true, Progress: running},
			{Name: "a-3", Group: "a"},
		}, []string{"roll a: running · 1/3 replaced · waits for a-3 to be Ready · fails in 14m"}, 0},
		// Nothing the console watches is short: what holds the roll is
		// elsewhere (a Deployment of another namespace), and the deadline
		// says the roll waits all the same.
		{"held by what the console does not watch", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: failing(95 * time.Second)},
			{Name: "a-2", Group: "a", Ready: true, Progress: running},
			{Name: "a-3", Group: "a", Ready: true},
		}, []string{"roll a: running · 1/3 replaced · waits for the cluster to validate · fails in 95s —"}, 0},
		// A deadline gone by is the roll's to act on (it fails at its next
		// check): the line counts down to nothing.
		{"the deadline gone by", []cluster.NodeRow{
			{Name: "a-1", Group: "a", Ready: true, Progress: failing(-time.Second)},
			{Name: "a-2", Group: "a", Ready: true, Progress: running},
			{Name: "a-3", Group: "a", Ready: true},
		}, []string{"roll a: running · 1/3 replaced — space pause"}, 0},
	} {
		src := uitest.MidRollout()
		src.NodeRows = tc.rows
		if tc.available > 0 {
			src.Summaries[0].Available = tc.available
		}
		s := uitest.NewScreen(src, nil)
		p := New(s)
		uitest.Focused(p, 120, 10)
		p.Update(screen.Refreshed{})
		out := uitest.Plain(p.View())
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the pane lacks %q:\n%s", tc.name, want, out)
			}
		}
	}
}

// In a narrow pane the roll line keeps what to press in sight: the keys
// come before the wait words, which the cut shortens, and enter shows the
// line whole. A wide pane keeps the wait words first.
func TestANarrowRollLineKeepsItsKeys(t *testing.T) {
	waiting := model.NodeProgress{Roll: model.NodeRoll{State: model.RollWaiting, Count: 3, Size: 3, FailsAt: uitest.T0.Add(14 * time.Minute)}}
	src := uitest.MidRollout()
	src.NodeRows = []cluster.NodeRow{
		{Name: "a-1", Group: "a", Ready: true, Progress: waiting},
		{Name: "a-2", Group: "a", Ready: true, Progress: waiting},
		{Name: "a-3", Group: "a", Ready: true},
	}
	// The pane's text as one line: wrapped lines joined, padding dropped.
	flat := func(view string) string { return strings.Join(strings.Fields(uitest.Plain(view)), " ") }
	for _, tc := range []struct {
		width      int
		want, lack string
	}{
		{120, "replaced · waits for the cluster to validate · fails in 14m — n next node · space pause · x stop", ""},
		{50, "replaced — n next node · space pause · x stop — waits for the cluster", "fails in 14m"},
	} {
		s := uitest.NewScreen(src, nil)
		p := New(s)
		uitest.Focused(p, tc.width, 10)
		p.Update(screen.Refreshed{})
		out := flat(p.View())
		if !strings.Contains(out, tc.want) {
			t.Errorf("at %d columns the pane lacks %q:\n%s", tc.width, tc.want, uitest.Plain(p.View()))
		}
		if tc.lack != "" && strings.Contains(out, tc.lack) {
			t.Errorf("at %d columns the pane has %q, which the cut should have shortened:\n%s", tc.width, tc.lack, uitest.Plain(p.View()))
		}
		uitest.Keys[screen.Pane](p, "enter")
		if out := flat(p.View()); !strings.Contains(out, "fails in 14m") || !strings.Contains(out, "x stop") {
			t.Errorf("at %d columns enter does not show the line whole:\n%s", tc.width, uitest.Plain(p.View()))
		}
	}
}
