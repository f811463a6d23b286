package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// list is the cursor and scroll position of a pane's rows, plus the cache
// of their renderings. Only rows between offset and offset+height are ever
// rendered.
type list struct {
	cursor, offset, height int
	// selected is the key of the row under the cursor, so the selection
	// follows its object when rows are inserted above it.
	selected string
	// focused is set while the list's pane has the focus; only then is
	// the cursor row highlighted.
	focused bool
	cache   map[string]cachedRow
}

// focusMsg tells a pane it gained (true) or lost (false) the focus.
type focusMsg bool

// highlighted reports whether row i is drawn as the selection.
func (l *list) highlighted(i int) bool { return l.focused && i == l.cursor }

type cachedRow struct {
	sig   string
	width int
	sel   bool
	out   string
}

// maxCachedRows bounds the cache; it only needs the rows seen recently.
const maxCachedRows = 4096

// render returns the cached rendering of the row with this key when its
// content signature, width and selection are unchanged, else draws it.
func (l *list) render(key, sig string, width int, sel bool, draw func() string) string {
	if c, ok := l.cache[key]; ok && c.sig == sig && c.width == width && c.sel == sel {
		return c.out
	}
	if l.cache == nil || len(l.cache) > maxCachedRows {
		l.cache = make(map[string]cachedRow, 64)
	}
	out := draw()
	l.cache[key] = cachedRow{sig: sig, width: width, sel: sel, out: out}
	return out
}

// follow moves the cursor to the row whose key is still l.selected after the
// rows changed, and clamps it to the rows there are.
func (l *list) follow(total int, keyAt func(int) string) {
	if l.selected != "" && l.cursor < total && keyAt(l.cursor) != l.selected {
		for i := 0; i < total; i++ {
			if keyAt(i) == l.selected {
				l.cursor = i
				break
			}
		}
	}
	l.clamp(total)
	if total > 0 {
		l.selected = keyAt(l.cursor)
	} else {
		l.selected = ""
	}
}

func (l *list) clamp(total int) {
	if l.cursor >= total {
		l.cursor = total - 1
	}
	if l.cursor < 0 {
		l.cursor = 0
	}
	h := max(l.height, 1)
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+h {
		l.offset = l.cursor - h + 1
	}
	if l.offset > total-h {
		l.offset = max(total-h, 0)
	}
	if l.offset < 0 {
		l.offset = 0
	}
}

// move handles the movement keys and the mouse wheel; it reports whether
// msg moved the cursor.
func (l *list) move(msg tea.Msg, km *KeyMap, total int, keyAt func(int) string) bool {
	before := l.cursor
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, km.Up):
			l.cursor--
		case key.Matches(msg, km.Down):
			l.cursor++
		case key.Matches(msg, km.PageUp):
			l.cursor -= max(l.height-1, 1)
		case key.Matches(msg, km.PageDown):
			l.cursor += max(l.height-1, 1)
		case key.Matches(msg, km.Top):
			l.cursor = 0
		case key.Matches(msg, km.Bottom):
			l.cursor = total - 1
		default:
			return false
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			l.cursor -= 3
		case tea.MouseWheelDown:
			l.cursor += 3
		default:
			return false
		}
	default:
		return false
	}
	l.clamp(total)
	if total > 0 {
		l.selected = keyAt(l.cursor)
	}
	return l.cursor != before
}

// window is the range of rows to render.
func (l *list) window(total int) (int, int) {
	l.clamp(total)
	end := min(l.offset+max(l.height, 0), total)
	return l.offset, end
}
