package rolloutdialog

import (
	"strings"
	"testing"

	"rollscope/model/action"
	"rollscope/ui/internal/uitest"
)

// pause asks first, with what it will do; y sends it once, n sends
// nothing.
func TestPauseAsksThenSends(t *testing.T) {
	acts := &uitest.Actions{Result: "ok"}
	s := uitest.NewScreen(uitest.MidRollout(), acts)
	o, _ := Open(s, action.Pause)
	if o == nil {
		t.Fatalf("pause opened no dialog (toast %q)", s.Toast)
	}
	o.SetSize(80, 16)
	if out := uitest.Plain(o.View()); !strings.Contains(out, "pause") || !strings.Contains(out, "frontend") {
		t.Errorf("confirmation:\n%s", out)
	}
	if w, ok := o.(interface{ Writes() bool }); !ok || !w.Writes() {
		t.Error("a dialog that writes does not say so: the clock would not be held")
	}
	if next := uitest.Answer(o, "n"); next != nil || len(acts.Sent) != 0 {
		t.Errorf("n: open %v, sent %v", next != nil, acts.Sent)
	}
	o, _ = Open(s, action.Pause)
	next := uitest.Answer(o, "y")
	if next != nil || len(acts.Sent) != 1 || acts.Sent[0].Action != action.Pause || acts.Sent[0].Name != "frontend" {
		t.Errorf("y: open %v, sent %+v", next != nil, acts.Sent)
	}
}

// Keys that cannot apply say why and open nothing: resume on a rollout
// that is not paused.
func TestRefusesWhatCannotApply(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), &uitest.Actions{})
	if o, _ := Open(s, action.Resume); o != nil || !strings.Contains(s.Toast, "is not paused — nothing sent") {
		t.Errorf("resume of a running rollout: dialog %v, toast %q", o != nil, s.Toast)
	}
}

// undo picks a revision, starting on the one before the current one.
func TestUndoStartsOnThePreviousRevision(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), &uitest.Actions{})
	o, _ := Open(s, action.Undo)
	if o == nil {
		t.Fatal("undo opened no dialog")
	}
	o.SetSize(80, 16)
	out := uitest.Plain(o.View())
	if !strings.Contains(out, "undo to which revision?") || !strings.Contains(out, "3 (current)") ||
		!strings.Contains(out, "rolls deployment/frontend back to revision 2's template (nginx:1.27)") || !strings.Contains(out, "becomes revision 4") {
		t.Errorf("undo picker:\n%s", out)
	}
}
