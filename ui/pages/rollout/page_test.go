package rollout

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

func newPage(t *testing.T, src *uitest.Source, acts screen.Actions, back bool, w, h int) (*Page, *screen.Screen) {
	t.Helper()
	s := uitest.NewScreen(src, acts)
	p := New(s, "kind-dev", back)
	p.Read()
	p.SetSize(w, h)
	return p, s
}

func press(p *Page, keys ...string) screen.Page {
	var next screen.Page = p
	for _, k := range keys {
		next, _ = next.Update(uitest.Press(k))
	}
	return next
}

// At 80 columns one pane fits: the tab strip names them all and marks the
// focused one, and tab and shift+tab move around them in order.
func TestTabMovesTheFocusAroundThePanesInOrder(t *testing.T) {
	p, _ := newPage(t, uitest.MidRollout(), nil, false, 80, 18)
	if got := uitest.Lines(p.View())[0]; !strings.Contains(got, "▶ ReplicaSets") || !strings.Contains(got, "Timeline") {
		t.Fatalf("tab strip = %q", got)
	}
	for _, want := range []string{"Pods", "Nodes", "History", "Timeline", "ReplicaSets"} {
		press(p, "tab")
		if got := uitest.Lines(p.View())[0]; !strings.Contains(got, "▶ "+want) {
			t.Fatalf("after tab: strip %q, want %s focused", got, want)
		}
	}
	press(p, "shift+tab")
	if got := uitest.Lines(p.View())[0]; !strings.Contains(got, "▶ Timeline") {
		t.Errorf("shift+tab from ReplicaSets: strip %q", got)
	}
}

// On a wide, tall terminal every pane has its own titled slot.
func TestWideTerminalShowsEveryPane(t *testing.T) {
	p, _ := newPage(t, uitest.MidRollout(), nil, false, 200, 40)
	out := uitest.Plain(p.View())
	for _, want := range []string{"▶ ReplicaSets", " Pods of frontend-new (2)", " Nodes (2)", " History", " Timeline", "2 old", "nginx:1.27"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q:\n%s", want, out)
		}
	}
	if n := len(strings.Split(p.View(), "\n")); n != 40 {
		t.Errorf("body is %d lines, want the 40 it was given", n)
	}
}

// enter on a ReplicaSet moves to its pods.
func TestEnterOnAReplicaSetFocusesItsPods(t *testing.T) {
	p, s := newPage(t, uitest.MidRollout(), nil, false, 80, 18)
	press(p, "down")
	if s.SelectedRS != "frontend-old" {
		t.Fatalf("down selected %q", s.SelectedRS)
	}
	press(p, "enter")
	out := uitest.Plain(p.View())
	if !strings.Contains(out, "▶ Pods of frontend-old (3)") || !strings.Contains(out, "frontend-old-00002") {
		t.Errorf("enter did not show the old ReplicaSet's pods:\n%s", out)
	}
}

// esc closes the page only when there is one to go back to (the fleet);
// alone, it is the focused pane's.
func TestEscGoesBackOnlyWithAPageBelow(t *testing.T) {
	p, _ := newPage(t, uitest.MidRollout(), nil, true, 80, 18)
	if next := press(p, "esc"); next != nil {
		t.Error("esc with the fleet below did not close the page")
	}
	p, _ = newPage(t, uitest.MidRollout(), nil, false, 80, 18)
	if next := press(p, "esc"); next == nil {
		t.Error("esc closed the only page")
	}
	// With a diff open esc closes the diff, not the page.
	p, _ = newPage(t, uitest.MidRollout(), nil, true, 80, 18)
	press(p, "tab", "tab", "tab", "up", "enter")
	if !strings.Contains(uitest.Plain(p.View()), "+image: nginx:1.27") && !strings.Contains(uitest.Plain(p.View()), "+ image: nginx:1.27") {
		t.Fatalf("no diff open:\n%s", uitest.Plain(p.View()))
	}
	if next := press(p, "esc"); next == nil || p.history.Opened() {
		t.Errorf("esc on a diff: page closed %v, diff open %v", next == nil, p.history.Opened())
	}
	// With a Timeline line shown whole esc closes the line; the next esc
	// goes back.
	p, _ = newPage(t, uitest.MidRollout(), nil, true, 80, 18)
	press(p, "tab", "tab", "tab", "tab", "enter")
	const whole = "09:29:40 event pod/frontend-new-00001: Readiness probe failed"
	if !strings.Contains(uitest.Plain(p.View()), whole) {
		t.Fatalf("no Timeline line open:\n%s", uitest.Plain(p.View()))
	}
	if next := press(p, "esc"); next == nil {
		t.Fatal("esc on a Timeline line left the rollout")
	}
	if out := uitest.Plain(p.View()); strings.Contains(out, whole) {
		t.Errorf("esc did not close the Timeline line:\n%s", out)
	}
	if next := press(p, "esc"); next != nil {
		t.Error("esc with the line closed did not go back to the fleet")
	}
}

// The console's own keys are left to the root where they rank: after the
// node keys (space steers a roll in the Nodes pane) and before the panes'.
func TestGlobalKeysAreLeftForTheRoot(t *testing.T) {
	p, s := newPage(t, uitest.MidRollout(), nil, false, 80, 18)
	s.IsGlobal = func(msg tea.KeyPressMsg) bool { return msg.String() == "?" || msg.String() == "space" }
	press(p, "?")
	if k, ok := s.TakeGlobal(); !ok || k.String() != "?" {
		t.Errorf("? was not left for the root: %v %v", k, ok)
	}
	press(p, "j")
	if _, ok := s.TakeGlobal(); ok {
		t.Error("j, a pane's key, was left for the root")
	}
}

// An action key opens the Deployment's dialog over the page; without a
// cluster to act on it says why in the footer instead.
func TestActionKeysOpenTheirDialog(t *testing.T) {
	p, s := newPage(t, uitest.MidRollout(), &uitest.Actions{}, false, 80, 18)
	press(p, "p")
	if o, ok := s.Shown(); !ok || o.Overlay == nil {
		t.Fatal("p opened no dialog")
	} else if o.Overlay.SetSize(80, 16); !strings.Contains(uitest.Plain(o.Overlay.View()), "pause") {
		t.Errorf("dialog does not say it pauses:\n%s", uitest.Plain(o.Overlay.View()))
	}
	p, s = newPage(t, uitest.MidRollout(), nil, false, 80, 18)
	press(p, "p")
	if _, ok := s.Shown(); ok || !strings.Contains(s.Toast, "no cluster") {
		t.Errorf("p without a cluster: toast %q", s.Toast)
	}
}

// The header says where we are, what the rollout waits for and why, with
// the headroom bars; HeaderHeight mirrors it.
func TestHeaderSaysWhereAndWhy(t *testing.T) {
	p, _ := newPage(t, uitest.MidRollout(), nil, false, 120, 30)
	head := p.Header(120, "clock 09:30:00 ×1")
	if len(head) != p.HeaderHeight(120) {
		t.Errorf("header has %d lines, HeaderHeight says %d", len(head), p.HeaderHeight(120))
	}
	out := uitest.Plain(strings.Join(head, "\n"))
	for _, want := range []string{"ctx kind-dev  ns shop  deploy frontend  rev 3", "nginx:1.27 → nginx:1.28", "clock 09:30:00 ×1",
		"maxSurge 1 (25%)", "Progressing True ReplicaSetUpdated", "… Waiting for deployment",
		"why frontend-new-00001 is not ready", "surge", "unavailable"} {
		if !strings.Contains(out, want) {
			t.Errorf("header lacks %q:\n%s", want, out)
		}
	}
}

// On a narrow screen kubectl's sentence and the why line take a second
// line rather than lose their end, and HeaderHeight counts it; the first
// line gives up the clock and the context before the Deployment's name.
func TestNarrowHeaderWrapsItsSentences(t *testing.T) {
	p, _ := newPage(t, uitest.MidRollout(), nil, false, 50, 20)
	head := p.Header(50, "clock 09:30:00 ×1")
	if len(head) != p.HeaderHeight(50) {
		t.Errorf("header has %d lines, HeaderHeight says %d", len(head), p.HeaderHeight(50))
	}
	out := uitest.Plain(strings.Join(head, "\n"))
	for _, want := range []string{"deploy frontend  rev 3", "why frontend-new-00001 is not ready", "    probe failing)", "  finish: 2 out of 4"} {
		if !strings.Contains(out, want) {
			t.Errorf("narrow header lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "clock") {
		t.Errorf("narrow header keeps the clock over what it shows:\n%s", out)
	}
}

// A Deployment that is not there says why, in one line.
func TestHeaderOfAMissingDeployment(t *testing.T) {
	src := uitest.MidRollout()
	p, s := newPage(t, src, nil, false, 80, 18)
	p.Show("shop", "gone")
	s.Read()
	head := uitest.Plain(strings.Join(p.Header(80, ""), "\n"))
	if p.HeaderHeight(80) != 2 || !strings.Contains(head, "deployment shop/gone does not exist — press : to pick another") {
		t.Errorf("header of a missing deployment (%d lines):\n%s", p.HeaderHeight(80), head)
	}
}

// While the cluster cannot be heard the status line says it is the last
// one known, not that the rollout is (still) done.
func TestStatusSentenceWhileDisconnected(t *testing.T) {
	r := cluster.RolloutView{Status: `deployment "web" successfully rolled out`, Done: true}
	if got := statusSentence(cluster.WatchStatus{Synced: true, Connected: true}, r); got != r.Status {
		t.Errorf("connected: %q", got)
	}
	frozen := cluster.WatchStatus{Synced: true, Unanswered: true, Problem: "no answer within 2s"}
	if got := statusSentence(frozen, r); got != `last known: deployment "web" successfully rolled out` {
		t.Errorf("frozen: %q", got)
	}
}

// The mouse wheel scrolls the focused pane.
func TestMouseWheelScrollsTheFocusedPane(t *testing.T) {
	src := uitest.MidRollout()
	for i := 2; i < 40; i++ {
		src.NodeRows = append(src.NodeRows, cluster.NodeRow{Name: "node-" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Ready: true, Schedulable: true})
	}
	p, _ := newPage(t, src, nil, false, 80, 18)
	press(p, "tab", "tab")
	p.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	p.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	// Each step of the wheel moves three rows.
	if n, _ := p.nodes.Selected(); n.Name != src.NodeRows[6].Name {
		t.Errorf("cursor on %s after two wheel steps, want %s", n.Name, src.NodeRows[6].Name)
	}
}

// The footer lists the focused pane's keys, then the global ones.
func TestKeyMapIsTheFocusedPanesThenTheGlobalOnes(t *testing.T) {
	p, _ := newPage(t, uitest.MidRollout(), nil, false, 80, 18)
	var got []string
	for _, b := range p.KeyMap().ShortHelp() {
		got = append(got, b.Help().Desc)
	}
	all := strings.Join(got, ", ")
	if !strings.Contains(all, "next pane") || !strings.Contains(all, "quit") {
		t.Errorf("footer keys: %s", all)
	}
}

// TestNoDeploymentSaysHowToOpenEachKind: with nothing picked, the header
// names the command of every other kind's page.
func TestNoDeploymentSaysHowToOpenEachKind(t *testing.T) {
	want := "no deployment selected — press : to pick one, or :rc, :sts, :ds NAME for a ReplicationController, StatefulSet, DaemonSet"
	if noneSelected != want {
		t.Errorf("header says %q, want %q", noneSelected, want)
	}
}
