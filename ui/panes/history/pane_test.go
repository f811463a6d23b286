package history

import (
	"regexp"
	"strings"
	"testing"

	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// The revisions with their change causes, the cursor on the current one;
// under the cursor is the revision undo starts from while the pane is
// focused; enter diffs it against the current one, esc goes back.
func TestRevisionsAndDiff(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), nil)
	p := New(s)
	p.SetSize(100, 8)
	p.Update(screen.Refreshed{})
	if s.SelectedRevision != 0 {
		t.Errorf("unfocused, undo would start at %d", s.SelectedRevision)
	}
	p.Update(screen.Focus(true))
	out := uitest.Plain(p.View())
	if !strings.Contains(out, "set image nginx=nginx:1.27") || !strings.Contains(out, "*    3") || s.SelectedRevision != 3 {
		t.Fatalf("history (undo from %d):\n%s", s.SelectedRevision, out)
	}
	uitest.Keys[screen.Pane](p, "up")
	if s.SelectedRevision != 2 {
		t.Errorf("up: undo from %d", s.SelectedRevision)
	}
	uitest.Keys[screen.Pane](p, "enter")
	out = uitest.Plain(p.View())
	if !p.Opened() || !strings.Contains(out, "current (revision 3) → revision 2") || !strings.Contains(out, "image: nginx:1.28") {
		t.Fatalf("diff:\n%s", out)
	}
	uitest.Keys[screen.Pane](p, "esc")
	if p.Opened() {
		t.Error("esc did not close the diff")
	}
	// A revision the cluster no longer keeps says so.
	uitest.Keys[screen.Pane](p, "down", "enter")
	if out := uitest.Plain(p.View()); !strings.Contains(out, "revision 3 is not in the history any more") {
		t.Errorf("missing revision:\n%s", out)
	}
	p.CloseDiff()
	if p.Opened() {
		t.Error("CloseDiff left the diff open")
	}
}

// A service deployed a few times a day for years is past revision 10000;
// its revisions, and the number an undo moved one to, are read whole, never
// cut to a false "1240…".
func TestFiveDigitRevisionsAreWhole(t *testing.T) {
	src := uitest.MidRollout()
	view := src.Rollouts["shop/frontend"]
	hist := view.History
	for i := range hist {
		hist[i].Revision += 12400
		if hist[i].Gone {
			hist[i].Now += 12400
		}
	}
	hist[0].Gone, hist[0].Now = true, 12409
	view.Revision += 12400
	src.Rollouts["shop/frontend"] = view
	s := uitest.NewScreen(src, nil)
	p := New(s)
	p.SetSize(80, 8)
	p.Update(screen.Refreshed{})
	out := uitest.Plain(p.View())
	if strings.Contains(out, "…") || !regexp.MustCompile(`\b12403\b`).MatchString(out) || !strings.Contains(out, "→rev 12409") {
		t.Fatalf("five-digit revisions:\n%s", out)
	}
}
