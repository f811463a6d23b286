package help

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// Help lists every key by group with what it does; ↓ scrolls when it does
// not fit, ? and esc close it, and q quits as it does over the panes.
func TestListsTheKeysScrollsAndCloses(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), nil)
	o := New(s)
	o.SetSize(160, 40)
	out := uitest.Plain(o.View())
	for _, want := range []string{"tab", "next pane", "set image", "cordon node", "clock faster", "quit"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	o.SetSize(60, 5)
	first := uitest.Plain(o.View())
	var ov screen.Overlay = o
	ov, _ = ov.Update(uitest.Press("down"))
	if uitest.Plain(ov.View()) == first {
		t.Error("↓ did not scroll a help that does not fit")
	}
	if _, cmd := ov.Update(uitest.Press("q")); cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit from help")
	}
	for _, k := range []string{"?", "esc"} {
		if next, _ := New(s).Update(uitest.Press(k)); next != nil {
			t.Errorf("%s did not close help", k)
		}
	}
}
