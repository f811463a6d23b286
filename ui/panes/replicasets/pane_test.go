package replicasets

import (
	"regexp"
	"strings"
	"testing"

	"rollscope/model/cluster"
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

// At 10,000 pods the counts are five digits, wider than their titles: a
// count cut to "100…" would be a false figure. Each row is whole on screen,
// its counts in full, whichever ReplicaSet the cursor is on, though the new
// one's dots fill many times the pane.
func TestTenThousandPodsKeepEveryCountWhole(t *testing.T) {
	src := uitest.MidRollout()
	view := src.Rollouts["shop/frontend"]
	states := make([]cluster.PodState, 10000)
	for i := range states {
		states[i] = cluster.PodReady
	}
	rss := view.ReplicaSets
	rss[0].Desired, rss[0].Current, rss[0].Ready, rss[0].Available = 10000, 10000, 10000, 10000
	rss[0].Pods = uitest.Pods("frontend-new", states...)
	rss[1].Desired, rss[1].Current, rss[1].Ready, rss[1].Available, rss[1].Pods = 0, 0, 0, 0, nil
	src.Rollouts["shop/frontend"] = view
	s := uitest.NewScreen(src, nil)
	p := New(s)
	uitest.Focused(p, 66, 18)
	newRow := regexp.MustCompile(`\s3\s+new\s+10000\s+10000\s+10000\s+10000\s`)
	oldRow := regexp.MustCompile(`\s2\s+old\s+0\s+0\s+0\s+0\s`)
	for _, step := range []struct {
		key string
		row *regexp.Regexp
	}{{"", newRow}, {"down", oldRow}, {"up", newRow}, {"down", oldRow}} {
		if step.key != "" {
			uitest.Keys[screen.Pane](p, step.key)
		}
		out := uitest.Plain(p.View())
		// A grid cut short says so on its own line ("… N more pods"):
		// any other … is a figure cut.
		if !step.row.MatchString(out) || strings.Contains(regexp.MustCompile(`… \d+ more pods`).ReplaceAllString(out, ""), "…") {
			t.Fatalf("after %q the selected ReplicaSet's row is not whole on screen:\n%s", step.key, out)
		}
		if n := len(uitest.Lines(out)); n > 18 {
			t.Fatalf("the pane drew %d lines in 18", n)
		}
	}
}

// A ReplicaSet with more pods than its grid has room for does not push the
// others out of the pane: at 100,000 replicas the new one's grid filled it
// and the old ReplicaSet a rollout replaces was not on screen. Every row
// shows, the grids share the room, and a grid cut short counts the pods it
// leaves out; → still walks them all.
func TestEveryReplicaSetShowsBesideABigGrid(t *testing.T) {
	p, s := newPane(t)
	rss := s.Rollout.ReplicaSets
	many := make([]cluster.PodRow, 2000)
	for i := range many {
		many[i] = rss[0].Pods[i%len(rss[0].Pods)]
	}
	rss[0].Pods = many
	out := uitest.Plain(p.View())
	lines := uitest.Lines(out)
	if len(lines) > 10 || !strings.Contains(out, "3 new") || !strings.Contains(out, "2 old") {
		t.Fatalf("both ReplicaSets' rows should show in 10 lines:\n%s", out)
	}
	// 88 glyphs a line: the new grid's shown lines, but its last, hold 88
	// pods each, and the line after them counts the rest.
	m := regexp.MustCompile(`… (\d+) more pods`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the cut grid does not count what it leaves out:\n%s", out)
	}
	glyphs := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  ●") || strings.HasPrefix(l, "  ◐") {
			glyphs++
		}
	}
	if m[1] == "2000" || glyphs == 0 {
		t.Errorf("the new grid shows no pods beside its count (%s more, %d grid lines):\n%s", m[1], glyphs, out)
	}
	uitest.Keys[screen.Pane](p, "right", "end")
	if s.Glyph != many[1999].Name {
		t.Errorf("end in the glyphs: %q, want the last of the 2000", s.Glyph)
	}
	// The old ReplicaSet's grid walked to its end scrolls far down; back
	// on its row, every row shows again.
	uitest.Keys[screen.Pane](p, "esc", "down")
	rss[1].Pods = many
	uitest.Keys[screen.Pane](p, "right", "end")
	p.View()
	uitest.Keys[screen.Pane](p, "esc")
	if out := uitest.Plain(p.View()); !strings.Contains(out, "3 new") || !strings.Contains(out, "2 old") {
		t.Errorf("back from the old ReplicaSet's glyphs, both rows should show again:\n%s", out)
	}
}
