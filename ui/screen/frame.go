package screen

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/ui/draw"
	"rollscope/ui/keys"
)

// Frame is how every overlay and dialog fits the room it is given: what it
// says scrolls (↑/↓, PgUp/PgDn, Home/End, the mouse wheel) when it has more
// lines than fit, and its action line — y send · n/esc cancel, or its own
// keys — stays in view under it, pinned to the bottom while the text
// scrolls, so a question is never on screen without its answer keys. An
// overlay keeps one Frame, sizes it with its own SetSize, hands its keys to
// Move before its own and draws through Draw; KeyMap adds the scroll keys to
// the footer while there is something to scroll.
type Frame struct {
	scroll draw.Scroll
	w, h   int
	// total is the content's length at the last Draw or Move.
	total int
}

// SetSize sizes the frame: w cells, h lines with the action line.
func (f *Frame) SetSize(w, h int) { f.w, f.h = w, h }

// Room is how many content lines fit above the action line.
func (f *Frame) Room() int { return max(f.h-1, 0) }

// Overflows reports whether the content has more lines than fit.
func (f *Frame) Overflows() bool { return f.total > f.Room() }

// Top scrolls back to the first line: a dialog that moves to its next
// question starts it at the top.
func (f *Frame) Top() { f.scroll.Offset = 0 }

// Reveal scrolls so that content line i is in view (a cursor's row).
func (f *Frame) Reveal(i int) {
	room := f.Room()
	if room <= 0 {
		return
	}
	if i < f.scroll.Offset {
		f.scroll.Offset = i
	}
	if i >= f.scroll.Offset+room {
		f.scroll.Offset = i - room + 1
	}
}

// Move scrolls total lines of content when msg is a scroll key or the
// wheel and there is more than fits; it reports whether it took msg. While
// the dialog takes typed text (typing), only keys that type nothing (the
// arrows, PgUp/PgDn, Home/End) scroll.
func (f *Frame) Move(msg tea.Msg, km *keys.Map, typing bool, total int) bool {
	f.total = total
	if !f.Overflows() {
		return false
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && typing && k.Text != "" {
		return false
	}
	return f.scroll.Move(msg, km, total, f.Room())
}

// KeyMap is km with the scroll keys added while there is something to
// scroll, for the footer and the action line.
func (f *Frame) KeyMap(km help.KeyMap) help.KeyMap {
	b := append(keys.Pane(nil), km.ShortHelp()...)
	if f.Overflows() {
		b = append(b, keys.Hints("↑/↓ pgup/pgdn home/end", "scroll")...)
	}
	return b
}

// Draw is the frame's view: the content lines in view and, under them,
// the action line built from km (the dialog's keys) with where the view
// is in the text. Short content is followed by its action line at once;
// content that overflows fills the room and the action line is the last.
func (f *Frame) Draw(s *Screen, content []string, km help.KeyMap, w, h int) string {
	f.SetSize(w, h)
	f.total = len(content)
	if h <= 0 {
		return ""
	}
	room := f.Room()
	f.scroll.Clamp(f.total, room)
	out := f.scroll.Window(content, w, room)
	if f.Overflows() {
		for len(out) < room {
			out = append(out, strings.Repeat(" ", w))
		}
	}
	return strings.Join(append(out, f.actionLine(s, km, w)), "\n")
}

// ActionLine is the action line alone, for a view that scrolls itself (the
// logs) and pins it the same way.
func (f *Frame) ActionLine(s *Screen, km help.KeyMap, w int) string { return f.actionLine(s, km, w) }

// actionLine is the dialog's keys, most important first and dropped from
// the end when the width is short, then how much is above and below.
func (f *Frame) actionLine(s *Screen, km help.KeyMap, w int) string {
	st := s.Styles
	where := ""
	if f.Overflows() {
		above, below := f.scroll.Offset, max(f.total-f.scroll.Offset-f.Room(), 0)
		switch {
		case above > 0 && below > 0:
			where = fmt.Sprintf("↑%d ↓%d more", above, below)
		case below > 0:
			where = fmt.Sprintf("↓ %d more", below)
		default:
			where = fmt.Sprintf("↑ %d above", above)
		}
	}
	var parts []string
	for _, b := range f.KeyMap(km).ShortHelp() {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	room := w - 2
	if where != "" {
		room -= draw.WidthOf(where) + 2
	}
	for len(parts) > 1 && draw.WidthOf(strings.Join(parts, " · ")) > room {
		parts = parts[:len(parts)-1]
	}
	line := st.Muted.Render("  " + strings.Join(parts, " · "))
	if where == "" {
		return draw.Fit(line, w)
	}
	return draw.JoinEnds(line, st.Accent.Render(where+" "), w)
}
