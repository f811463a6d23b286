package draw

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/ui/keys"
)

// Scroll is a text view's first visible line, for views whose text is
// longer than their height (the pod detail, logs).
type Scroll struct{ Offset int }

// Last is the largest offset: the text's end at the bottom of the view.
func Last(total, h int) int { return max(total-h, 0) }

// Move handles the movement keys and the mouse wheel over total lines in a
// view h lines high; it reports whether msg was one of them.
func (s *Scroll) Move(msg tea.Msg, km *keys.Map, total, h int) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, km.Up):
			s.Offset--
		case key.Matches(msg, km.Down):
			s.Offset++
		case key.Matches(msg, km.PageUp):
			s.Offset -= max(h-1, 1)
		case key.Matches(msg, km.PageDown):
			s.Offset += max(h-1, 1)
		case key.Matches(msg, km.Top):
			s.Offset = 0
		case key.Matches(msg, km.Bottom):
			s.Offset = Last(total, h)
		default:
			return false
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			s.Offset -= 3
		case tea.MouseWheelDown:
			s.Offset += 3
		default:
			return false
		}
	default:
		return false
	}
	s.Clamp(total, h)
	return true
}

// Clamp keeps the offset within the text.
func (s *Scroll) Clamp(total, h int) { s.Offset = min(max(s.Offset, 0), Last(total, h)) }

// AtEnd reports whether the text's last line is in view.
func (s Scroll) AtEnd(total, h int) bool { return s.Offset >= Last(total, h) }

// Window is the lines in view, each fitted to w, h of them at most.
func (s Scroll) Window(lines []string, w, h int) []string {
	start := min(max(s.Offset, 0), len(lines))
	end := min(start+h, len(lines))
	out := make([]string, 0, h)
	for _, l := range lines[start:end] {
		out = append(out, Fit(l, w))
	}
	return out
}
