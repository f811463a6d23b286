package replicasets

import (
	"strings"
	"testing"

	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

func newPane(t *testing.T) (*Pane, *screen.Screen) {
	t.Helper()
	s := uitest.NewScreen(uitest.MidRollout(), nil)
	p := New(s)
	uitest.Focused(p, 90, 10)
	return p, s
}

// The newest ReplicaSet first, each row with its revision, role, counts
// and images over a grid of its pods' glyphs; the cursor's ReplicaSet is
// the one the Pods pane shows.
func TestRowsAndSelection(t *testing.T) {
	p, s := newPane(t)
	lines := uitest.Lines(p.View())
	out := strings.Join(lines, "\n")
	if !strings.Contains(lines[1], "3 new") || !strings.Contains(lines[1], "nginx:1.28") || !strings.Contains(out, "2 old") ||
		!strings.Contains(out, "●◐") || !strings.Contains(out, "●●●") {
		t.Fatalf("ReplicaSets:\n%s", out)
	}
	if s.SelectedRS != "frontend-new" {
		t.Errorf("selected %q, want the newest", s.SelectedRS)
	}
	uitest.Keys[screen.Pane](p, "down")
	if s.SelectedRS != "frontend-old" {
		t.Errorf("down selected %q", s.SelectedRS)
	}
}

// → walks the glyphs of the ReplicaSet's pods: the pod under the cursor is
// the Screen's Glyph, and esc goes back to the row.
func TestGlyphCursor(t *testing.T) {
	p, s := newPane(t)
	uitest.Keys[screen.Pane](p, "right")
	if s.Glyph != "frontend-new-00000" {
		t.Fatalf("→ put the glyph cursor on %q", s.Glyph)
	}
	uitest.Keys[screen.Pane](p, "right")
	if s.Glyph != "frontend-new-00001" {
		t.Errorf("→ again: %q", s.Glyph)
	}
	if out := uitest.Plain(p.View()); !strings.Contains(out, "frontend-new-00001") {
		t.Errorf("the pod under the glyph cursor is not named:\n%s", out)
	}
	uitest.Keys[screen.Pane](p, "esc")
	if s.Glyph != "" {
		t.Errorf("esc left the glyph cursor on %q", s.Glyph)
	}
}
