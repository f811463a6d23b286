package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
)

var (
	arrowLeft  = tea.KeyPressMsg{Code: tea.KeyLeft}
	arrowRight = tea.KeyPressMsg{Code: tea.KeyRight}
)

// caretOf is the pod the glyph cursor names under its glyph, "" when the
// cursor is on a ReplicaSet's row.
func caretOf(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		left, _, _ := strings.Cut(line, "│")
		if _, rest, ok := strings.Cut(left, "↑ "); ok && strings.HasPrefix(strings.TrimSpace(left), "↑") {
			name, _, _ := strings.Cut(rest, " ")
			return name
		}
	}
	return ""
}

// → steps onto the ReplicaSet's glyphs, ←/→ move along them and stop at
// the ends, enter opens the detail of the pod under the cursor and esc
// goes back; the cursor keeps to its pod as the grid changes, and leaves
// the grid when the ReplicaSet's pods are gone.
func TestGlyphCursorOpensThePodUnderIt(t *testing.T) {
	m, src := whyModel(t, nil)
	r := newTeaRun(t, m)
	r.send(press("shift+tab")) // back to the ReplicaSets pane
	if c := caretOf(r.screen()); c != "" {
		t.Fatalf("a glyph is picked before →: %q\n%s", c, r.screen())
	}
	r.send(arrowRight)
	if c := caretOf(r.screen()); c != "frontend-7b7d5974f6-00000" {
		t.Fatalf("→ picked %q, want the new ReplicaSet's first pod:\n%s", c, r.screen())
	}
	if s := r.screen(); !strings.Contains(s, "↑ frontend-7b7d5974f6-00000 Running 1/1") || !strings.Contains(s, "enter details") {
		t.Errorf("the picked pod is not named with its state, or the footer lacks the glyph keys:\n%s", s)
	}
	r.send(arrowLeft) // the grid's start: stays
	for _, want := range []string{"00000", "00001", "00002"} {
		if c := caretOf(r.screen()); c != "frontend-7b7d5974f6-"+want {
			t.Fatalf("cursor on %q, want pod %s", c, want)
		}
		r.send(arrowRight)
	}
	r.send(arrowLeft)
	r.send(arrowLeft) // 00001
	r.send(arrowLeft) // 00000

	r.send(press("enter"))
	s := r.screen()
	if !strings.Contains(s, "pod shop/frontend-7b7d5974f6-00000") || !strings.Contains(s, "Controlled By: ReplicaSet/frontend-7b7d5974f6") {
		t.Fatalf("enter on the glyph did not open its pod's detail:\n%s", s)
	}
	r.send(press("esc"))
	if c := caretOf(r.screen()); c != "frontend-7b7d5974f6-00000" {
		t.Fatalf("after the detail the cursor is on %q:\n%s", c, r.screen())
	}

	// The pod under the cursor goes: the cursor stays in its place, on the
	// pod now there; the pods go: back to the row.
	r.send(arrowRight) // 00001
	v := src.rollouts["shop/frontend"]
	rs := v.ReplicaSets[0]
	rs.Pods = append(append([]cluster.PodRow{}, rs.Pods[:1]...), rs.Pods[2:]...)
	v.ReplicaSets = append([]cluster.ReplicaSetRow{rs}, v.ReplicaSets[1:]...)
	src.rollouts["shop/frontend"] = v
	r.send(cluster.Batch{At: t0, Watch: src.watch})
	if c := caretOf(r.screen()); c != "frontend-7b7d5974f6-00002" {
		t.Fatalf("after its pod went the cursor is on %q, want the pod in its place:\n%s", c, r.screen())
	}
	rs.Pods = nil
	v.ReplicaSets = append([]cluster.ReplicaSetRow{rs}, v.ReplicaSets[1:]...)
	src.rollouts["shop/frontend"] = v
	r.send(cluster.Batch{At: t0, Watch: src.watch})
	if c := caretOf(r.screen()); c != "" {
		t.Fatalf("with no pods left the cursor is still on %q", c)
	}
	r.send(press("j")) // the row keys work again
	if r.m.s.SelectedRS != "frontend-5d9c8f7b6c" {
		t.Errorf("j after the grid selected %q", r.m.s.SelectedRS)
	}

	// esc leaves the grid; ↑/↓ on the row move between ReplicaSets again.
	r.send(arrowRight)
	if c := caretOf(r.screen()); c != "frontend-5d9c8f7b6c-00000" {
		t.Fatalf("→ on the old ReplicaSet picked %q", c)
	}
	r.send(press("esc"))
	if c := caretOf(r.screen()); c != "" || strings.Contains(r.screen(), "enter details") {
		t.Errorf("esc left the cursor on %q:\n%s", c, r.screen())
	}
	r.send(press("k"))
	if r.m.s.SelectedRS != "frontend-7b7d5974f6" {
		t.Errorf("k after esc selected %q", r.m.s.SelectedRS)
	}
}
