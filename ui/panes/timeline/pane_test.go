package timeline

import (
	"slices"
	"strings"
	"testing"

	"rollscope/model/cluster"
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

// The pane tells the story again whenever the screen reads a timeline that
// is not the one it told — longer, or as long with other entries — and
// never from the timeline read before.
func TestANewTimelineIsToldAtOnce(t *testing.T) {
	p, s := newPane(t)
	src := s.Src.(*uitest.Source)
	grown := append(slices.Clip(src.Entries), cluster.TimelineEntry{Time: uitest.T0, Kind: cluster.TimelineAction, Object: "deployment/frontend", Message: "paused"})
	src.Entries = grown
	s.Read()
	p.Update(screen.Refreshed{})
	if out := uitest.Plain(p.View()); !strings.Contains(out, "paused") {
		t.Fatalf("a longer timeline is not told:\n%s", out)
	}
	same := slices.Clone(grown)
	same[len(same)-1].Message = "resumed"
	src.Entries = same
	s.Read()
	p.Update(screen.Refreshed{})
	if out := uitest.Plain(p.View()); !strings.Contains(out, "resumed") || strings.Contains(out, "paused") {
		t.Fatalf("a timeline as long as the last, with another entry, is not told:\n%s", out)
	}
}
