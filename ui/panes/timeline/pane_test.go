package timeline

import (
	"strings"
	"testing"

	"rollscope/ui/draw"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

func newPane(t *testing.T) (*Pane, *screen.Screen) {
	t.Helper()
	s := uitest.NewScreen(uitest.MidRollout(), nil)
	p := New(s)
	uitest.Focused(p, 100, 8)
	return p, s
}

// The story oldest first, the cursor following the newest entry.
func TestTellsTheStoryFollowingTheNewest(t *testing.T) {
	p, _ := newPane(t)
	lines := uitest.Lines(p.View())
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "TIME") || !strings.HasPrefix(lines[3], draw.Marker) || !strings.Contains(lines[1], "09:29:10 set image nginx=nginx:1.28") ||
		!strings.Contains(lines[3], "Readiness probe failed") || !strings.Contains(lines[3], "pod/frontend-new-00001") {
		t.Fatalf("timeline:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(p.View(), "\x1b[") {
		t.Error("no row is drawn selected")
	}
	// Moving up stops following; enter shows the whole entry under the
	// list.
	uitest.Keys[screen.Pane](p, "up", "enter")
	if out := uitest.Plain(p.View()); !strings.Contains(out, "scaled up 0 → 2") {
		t.Errorf("enter did not show the entry whole:\n%s", out)
	}
}

// f cycles what the pane keeps: all, actions, scaling, warnings — and says
// so in the footer.
func TestFilterCyclesAndSaysSo(t *testing.T) {
	p, s := newPane(t)
	for _, tc := range []struct{ word, keeps, drops string }{
		{"actions", "set image", "scaled up"},
		{"scaling", "scaled up", "set image"},
		{"warnings", "Readiness probe failed", "scaled up"},
		{"all", "scaled up", ""},
	} {
		uitest.Keys[screen.Pane](p, "f")
		out := uitest.Plain(p.View())
		if s.Toast != "timeline: "+tc.word || !strings.Contains(out, tc.keeps) || tc.drops != "" && strings.Contains(out, tc.drops) {
			t.Errorf("filter %s (toast %q):\n%s", tc.word, s.Toast, out)
		}
	}
}
