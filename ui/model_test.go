package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/internal/uitest"
)

// fakeClock is the embedded cluster's clock as the console sees it.
type fakeClock struct {
	speed  float64
	paused bool
}

func (c *fakeClock) Speed() float64     { return c.speed }
func (c *fakeClock) SetSpeed(f float64) { c.speed = f }
func (c *fakeClock) Paused() bool       { return c.paused }
func (c *fakeClock) SetPaused(p bool)   { c.paused = p }

func newTestModel(t testing.TB, src Source, embedded EmbeddedControls, w, h int) Model {
	t.Helper()
	opts := Options{Cluster: src, Namespace: "shop", Deployment: "frontend", Context: "kind-dev",
		Theme: themes.Dark(), Clock: fixedClock}
	if embedded != nil {
		opts.Embedded, opts.Context = embedded, "embedded"
	}
	m := New(opts)
	return send(m, tea.WindowSizeMsg{Width: w, Height: h})
}

func send(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	return m
}

func press(s string) tea.KeyPressMsg { return uitest.Press(s) }

func typed(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, press(string(r)))
	}
	return out
}

func plain(m Model) string { return ansi.Strip(m.Render()) }

func TestKeyStringsMatchBindings(t *testing.T) {
	for _, k := range []string{"tab", "shift+tab", "enter", "esc", "space", "ctrl+c", "?", ":", "+"} {
		if got := press(k).String(); got != k {
			t.Errorf("press(%q).String() = %q", k, got)
		}
	}
}

func TestTabMovesFocusAroundThePanes(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 80, 24)
	// At 80 columns one pane fits: the tab strip marks the focused one.
	for _, f := range []string{"Pods", "Nodes", "History", "Timeline", "ReplicaSets"} {
		m = send(m, press("tab"))
		if !strings.Contains(plain(m), "▶ "+f) {
			t.Fatalf("after tab the strip does not mark %s:\n%s", f, plain(m))
		}
	}
	m = send(m, press("shift+tab"))
	if !strings.Contains(plain(m), "▶ Timeline") {
		t.Fatalf("shift+tab from ReplicaSets: not on Timeline:\n%s", plain(m))
	}
	if !strings.Contains(plain(m), "TIME") {
		t.Error("at 80 columns the focused timeline pane must be the one on screen")
	}
}

func TestQuit(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 80, 24)
	// Help is no place to type: q quits there too.
	for _, m := range []Model{m, send(m, press("?"))} {
		for _, k := range []string{"q", "ctrl+c"} {
			_, cmd := m.Update(press(k))
			if cmd == nil {
				t.Fatalf("%s: no command", k)
			}
			if _, ok := cmd().(tea.QuitMsg); !ok {
				t.Errorf("%s did not quit", k)
			}
		}
	}
}

func TestHelpOverlayTogglesAndListsDisabledActionsWithReason(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 160, 48)
	m = send(m, press("?"))
	if m.overlay == nil {
		t.Fatal("? did not open help")
	}
	out := plain(m)
	for _, want := range []string{"set image — no cluster to act on", "drain node — no cluster to act on",
		"clock faster — only in embedded mode", "crash loop", "switch deployment"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	m = send(m, press("esc"))
	if m.overlay != nil {
		t.Fatal("esc did not close help")
	}
	m = send(m, press("?"), press("?"))
	if m.overlay != nil {
		t.Fatal("? did not toggle help off")
	}
}

func TestDisabledActionKeySaysWhy(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 80, 24)
	m = send(m, press("i"))
	if !strings.Contains(m.s.Toast, "set image: no cluster to act on") {
		t.Errorf("toast = %q", m.s.Toast)
	}
	m = send(m, press("+"))
	if !strings.Contains(m.s.Toast, "only in embedded mode") {
		t.Errorf("+ outside embedded mode: toast = %q", m.s.Toast)
	}
	if !strings.Contains(plain(m), "only in embedded mode") {
		t.Error("the reason is not on screen")
	}
}

func TestSpeedKeysSteerTheEmbeddedClock(t *testing.T) {
	clock := &fakeClock{speed: 1}
	m := newTestModel(t, midRollout(), clock, 80, 24)
	m = send(m, press("+"), press("+"))
	if clock.speed != 4 {
		t.Errorf("after ++ speed = %v, want 4", clock.speed)
	}
	m = send(m, press("-"))
	if clock.speed != 2 {
		t.Errorf("after - speed = %v, want 2", clock.speed)
	}
	for range 20 {
		m = send(m, press("+"))
	}
	if clock.speed != maxSpeed {
		t.Errorf("speed = %v, want it capped at %v", clock.speed, float64(maxSpeed))
	}
	m = send(m, press("space"))
	if !clock.paused {
		t.Fatal("space did not pause the clock")
	}
	if !strings.Contains(plain(m), "CLOCK PAUSED") {
		t.Error("header does not say the clock is paused")
	}
	send(m, press("space"))
	if clock.paused || clock.speed != maxSpeed {
		t.Errorf("space again: paused=%v speed=%v, want running at the same speed", clock.paused, clock.speed)
	}
}

func TestPickerSwitchesDeployment(t *testing.T) {
	tests := []struct {
		name string
		keys []tea.Msg
		want string
	}{
		{"command with a name", append(append([]tea.Msg{press(":")}, typed("checkout")...), press("enter")), "checkout"},
		{"command with the resource prefix", append(append([]tea.Msg{press(":")}, typed("deploy checkout")...), press("enter")), "checkout"},
		{"filter then pick", append(append([]tea.Msg{press("/")}, typed("chk")...), press("backspace"), press("backspace"), press("enter")), "checkout"},
		{"arrow to the next", []tea.Msg{press("/"), press("down"), press("enter")}, "search"},
		{"esc keeps the current one", append(append([]tea.Msg{press(":")}, typed("checkout")...), press("esc")), "frontend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestModel(t, midRollout(), nil, 80, 24)
			m = send(m, tc.keys...)
			if m.overlay != nil {
				t.Fatal("picker still open")
			}
			if m.s.Deployment != tc.want {
				t.Errorf("deployment = %q, want %q", m.s.Deployment, tc.want)
			}
		})
	}
}

func TestPickerTypingQDoesNotQuit(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 80, 24)
	m = send(m, press(":"))
	_, cmd := m.Update(press("q"))
	if cmd != nil {
		t.Fatal("q in the picker returned a command; it must be text")
	}
	if _, cmd := m.Update(press("ctrl+c")); cmd == nil {
		t.Fatal("ctrl+c does not quit from the picker")
	}
}

func TestPickerUnknownNameSaysSo(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 80, 24)
	m = send(m, append(append([]tea.Msg{press(":")}, typed("nope")...), press("enter"))...)
	if m.s.Deployment != "frontend" || !strings.Contains(m.s.Toast, `no deployment matches "nope"`) {
		t.Errorf("deployment = %q, toast = %q", m.s.Deployment, m.s.Toast)
	}
}

func TestBatchIsAppliedAndRendered(t *testing.T) {
	src := midRollout()
	src.watch = cluster.WatchStatus{}
	m := newTestModel(t, src, nil, 80, 24)
	if !strings.Contains(plain(m), "connecting to the cluster") {
		t.Fatal("no banner before the first batch")
	}
	lost := cluster.WatchStatus{Synced: true, Connected: false, Problem: "connection refused", Since: t0.Add(-30 * time.Second)}
	m = send(m, cluster.Batch{At: t0, Watch: lost})
	if len(src.applied) != 1 {
		t.Fatalf("batches applied = %d", len(src.applied))
	}
	if out := plain(m); !strings.Contains(out, "watch lost 30s ago: connection refused") {
		t.Errorf("banner missing:\n%s", out)
	}
	m = send(m, cluster.Batch{At: t0.Add(-2 * time.Minute), Watch: cluster.WatchStatus{Synced: true, Connected: true},
		Deleted: []cluster.ObjectRef{{Kind: "Deployment", Namespace: "shop", Name: "frontend"}}})
	out := plain(m)
	if strings.Contains(out, "watch lost") {
		t.Error("banner still shown once connected")
	}
	if !strings.Contains(out, "deployment shop/frontend was deleted 2m ago (at 09:28:00)") {
		t.Errorf("deleted deployment not said deleted, and when:\n%s", out)
	}
}

// What the header says of a deployment it cannot show: each reason only
// once the watches know it.
func TestAbsentDeploymentSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		watch  cluster.WatchStatus
		absent cluster.Absence
		want   string
	}{
		{"not listed yet", cluster.WatchStatus{Connected: true}, cluster.Absence{}, "deployment shop/frontend not listed yet"},
		{"never existed", cluster.WatchStatus{Synced: true, Connected: true}, cluster.Absence{}, "deployment shop/frontend does not exist"},
		{"no namespace", cluster.WatchStatus{Synced: true, Connected: true}, cluster.Absence{NoNamespace: true}, `namespace "shop" does not exist`},
	} {
		src := midRollout()
		delete(src.rollouts, "shop/frontend")
		src.absent = tc.absent
		m := newTestModel(t, src, nil, 120, 30)
		m = send(m, cluster.Batch{At: t0, Watch: tc.watch})
		src.absent = tc.absent
		m = send(m, cluster.Batch{At: t0, Watch: tc.watch})
		if out := plain(m); !strings.Contains(out, tc.want) {
			t.Errorf("%s: header lacks %q:\n%s", tc.name, tc.want, out)
		}
	}
}

func TestFirstDeploymentIsChosenWhenNoneGiven(t *testing.T) {
	m := New(Options{Cluster: midRollout(), Namespace: "shop", Clock: fixedClock})
	if m.s.Deployment != "checkout" {
		t.Errorf("deployment = %q, want the first in the namespace", m.s.Deployment)
	}
}

func TestReplicaSetSelectionDrivesPodsPane(t *testing.T) {
	src := midRollout()
	m := newTestModel(t, src, nil, 160, 48)
	if !strings.Contains(plain(m), "Pods of frontend-7b7d5974f6") {
		t.Fatal("pods pane does not start on the newest ReplicaSet")
	}
	m = send(m, press("j"))
	if m.s.SelectedRS != "frontend-5d9c8f7b6c" {
		t.Fatalf("selected = %q", m.s.SelectedRS)
	}
	if out := plain(m); !strings.Contains(out, "Pods of frontend-5d9c8f7b6c (8 + 1 terminating)") ||
		!strings.Contains(out, "frontend-5d9c8f7b6c-00008") {
		t.Errorf("pods pane did not follow the selection:\n%s", out)
	}
	// The selection stays on its ReplicaSet when a newer one appears above.
	v := src.rollouts["shop/frontend"]
	v.ReplicaSets = append([]cluster.ReplicaSetRow{{Name: "frontend-aaaaaaaaaa", Revision: 4, Role: cluster.RoleNew}}, v.ReplicaSets...)
	src.rollouts["shop/frontend"] = v
	m = send(m, cluster.Batch{At: t0, Watch: src.watch})
	if m.s.SelectedRS != "frontend-5d9c8f7b6c" {
		t.Errorf("after a new ReplicaSet the selection moved to %q", m.s.SelectedRS)
	}
}

func TestHistoryEnterOpensDiffAndEscClosesIt(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 80, 24)
	m = send(m, press("tab"), press("tab"), press("tab"))
	if !strings.Contains(plain(m), "▶ History") {
		t.Fatalf("History not focused:\n%s", plain(m))
	}
	m = send(m, press("k"), press("enter"))
	out := plain(m)
	for _, want := range []string{"current (revision 3) → revision 2", "(- goes away, + an undo brings back)", "-   image: nginx:1.28", "+   image: nginx:1.27"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	m = send(m, press("esc"))
	if strings.Contains(plain(m), "→ revision 2") {
		t.Error("esc did not close the diff")
	}
	m = send(m, press("k"), press("enter"))
	if !strings.Contains(plain(m), "cannot diff: revision 1 is not in the history any more") {
		t.Errorf("diff error not shown:\n%s", plain(m))
	}
}

func TestExhaustedSurgeIsShownWithNumbers(t *testing.T) {
	m := newTestModel(t, midRollout(), nil, 80, 24)
	out := plain(m)
	if !strings.Contains(out, "13/13 full") || !strings.Contains(out, "0/2") {
		t.Errorf("headroom numbers missing:\n%s", out)
	}
	if !strings.Contains(out, "maxSurge 3 (25%)") {
		t.Errorf("strategy line missing the resolved and spec values:\n%s", out)
	}
}

func TestUnchangedBatchCostsNoRefresh(t *testing.T) {
	src := midRollout()
	m := newTestModel(t, src, nil, 80, 24)
	src.unchanged = true
	reads := src.rolloutReads
	m = send(m, cluster.Batch{At: t0, Watch: src.watch})
	if src.rolloutReads != reads {
		t.Errorf("an unchanged batch re-read the rollout")
	}
	send(m, cluster.Batch{At: t0, Watch: cluster.WatchStatus{Synced: true}})
	if src.rolloutReads == reads {
		t.Errorf("a batch that changed the watch status did not refresh")
	}
}

// A cluster too busy for the speed set holds its clock back; the header
// says how fast it really flows, and says no more once it keeps up again.
func TestTheHeaderSaysWhenTheClockFallsBehindItsSpeed(t *testing.T) {
	clock := &fakeClock{speed: 10}
	virtual, real := fixedClock(), fixedClock()
	m := newTestModel(t, midRollout(), clock, 100, 24)
	m.s.Clock = func() time.Time { return virtual }
	*m.flow = clockFlow{now: func() time.Time { return real }}
	second := func(virtualSeconds float64) {
		real = real.Add(time.Second)
		virtual = virtual.Add(time.Duration(virtualSeconds * float64(time.Second)))
		m = send(m, tickMsg(real))
	}
	for range 4 {
		second(10)
	}
	if s := plain(m); !strings.Contains(s, "×10") || strings.Contains(s, "busy") {
		t.Fatalf("a clock keeping its speed:\n%s", s)
	}
	for range 4 {
		second(0.5)
	}
	if s := plain(m); !strings.Contains(s, "×0.50 (busy)") {
		t.Fatalf("a clock at a twentieth of its speed:\n%s", s)
	}
	// Held for a dialog, paused, or set to another speed, the clock is
	// measured afresh.
	m = send(m, press("+"))
	if s := plain(m); strings.Contains(s, "busy") || !strings.Contains(s, "×20") {
		t.Fatalf("a new speed, not yet measured:\n%s", s)
	}
	for range 4 {
		second(20)
	}
	if s := plain(m); strings.Contains(s, "busy") {
		t.Fatalf("a clock that caught up:\n%s", s)
	}
}

func TestMeasuredSpeedsRead(t *testing.T) {
	for r, want := range map[float64]string{0: "0", 0.004: "0", 0.052: "0.05", 0.5: "0.50", 1: "1", 2.46: "2.5", 9.96: "10", 12.4: "12", 640: "640"} {
		if got := formatRate(r); got != want {
			t.Errorf("formatRate(%v) = %q, want %q", r, got, want)
		}
	}
}
