package draw

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/ui/keys"
)

// List is the cursor and scroll position of a pane's rows, plus the cache
// of their renderings. Only rows between Offset and Offset+Height are ever
// rendered.
type List struct {
	Cursor, Offset, Height int
	// Selected is the key of the row under the cursor, so the selection
	// follows its object when rows are inserted above it.
	Selected string
	// Focused is set while the list's pane has the focus; only then is
	// the cursor row highlighted.
	Focused bool
	cache   map[string]cachedRow
	widths  []int
}

// Lay tells the list the column widths its rows are drawn at: a row drawn at
// other widths is not reused, as its columns would no longer line up.
func (l *List) Lay(widths []int) {
	if !slices.Equal(l.widths, widths) {
		l.widths = slices.Clone(widths)
		l.cache = nil
	}
}

// Highlighted reports whether row i is drawn as the selection.
func (l *List) Highlighted(i int) bool { return l.Focused && i == l.Cursor }

type cachedRow struct {
	sig   string
	width int
	sel   bool
	out   string
}

// maxCachedRows bounds the cache; it only needs the rows seen recently.
const maxCachedRows = 4096

// Render returns the cached rendering of the row with this key when its
// content signature, width and selection are unchanged, else draws it.
func (l *List) Render(key, sig string, width int, sel bool, draw func() string) string {
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

// Follow moves the cursor to the row whose key is still l.Selected after the
// rows changed, and clamps it to the rows there are.
func (l *List) Follow(total int, keyAt func(int) string) {
	if l.Selected != "" && l.Cursor < total && keyAt(l.Cursor) != l.Selected {
		for i := 0; i < total; i++ {
			if keyAt(i) == l.Selected {
				l.Cursor = i
				break
			}
		}
	}
	l.Clamp(total)
	if total > 0 {
		l.Selected = keyAt(l.Cursor)
	} else {
		l.Selected = ""
	}
}

// Clamp keeps the cursor on a row and the window around the cursor.
func (l *List) Clamp(total int) {
	if l.Cursor >= total {
		l.Cursor = total - 1
	}
	if l.Cursor < 0 {
		l.Cursor = 0
	}
	h := max(l.Height, 1)
	if l.Cursor < l.Offset {
		l.Offset = l.Cursor
	}
	if l.Cursor >= l.Offset+h {
		l.Offset = l.Cursor - h + 1
	}
	if l.Offset > total-h {
		l.Offset = max(total-h, 0)
	}
	if l.Offset < 0 {
		l.Offset = 0
	}
}

// Move handles the movement keys and the mouse wheel; it reports whether
// msg moved the cursor.
func (l *List) Move(msg tea.Msg, km *keys.Map, total int, keyAt func(int) string) bool {
	before := l.Cursor
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, km.Up):
			l.Cursor--
		case key.Matches(msg, km.Down):
			l.Cursor++
		case key.Matches(msg, km.PageUp):
			l.Cursor -= max(l.Height-1, 1)
		case key.Matches(msg, km.PageDown):
			l.Cursor += max(l.Height-1, 1)
		case key.Matches(msg, km.Top):
			l.Cursor = 0
		case key.Matches(msg, km.Bottom):
			l.Cursor = total - 1
		default:
			return false
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			l.Cursor -= 3
		case tea.MouseWheelDown:
			l.Cursor += 3
		default:
			return false
		}
	default:
		return false
	}
	l.Clamp(total)
	if total > 0 {
		l.Selected = keyAt(l.Cursor)
	}
	return l.Cursor != before
}

// Window is the range of rows to render.
func (l *List) Window(total int) (int, int) {
	l.Clamp(total)
	end := min(l.Offset+max(l.Height, 0), total)
	return l.Offset, end
}

// Marker marks the selected row of every list a key acts on. It is drawn
// in the row's gutter, so the selection reads without colour (NO_COLOR,
// monochrome captures) as well as in the theme's selection style.
const Marker = "▸"

// Gutter is the cells a table keeps before every row for Marker.
const Gutter = 2

// Mark puts Marker in place of the leading space of line, a row drawn
// with a one-space gutter, when sel.
func Mark(line string, sel bool) string {
	if sel && strings.HasPrefix(line, " ") {
		return Marker + line[1:]
	}
	return line
}

// Table draws the list as n rows under the titles of cols, w cells wide:
// the header row, then the rows in the window, each drawn by row with the
// column widths, the width to fit (w less the Gutter) and whether it is
// highlighted — or empty, muted, when there are no rows. The highlighted
// row carries Marker in the gutter.
func (l *List) Table(p Paints, cols []Column, w, n int, empty string, row func(i int, widths []int, w int, sel bool) string) []string {
	inner := max(w-Gutter, 0)
	widths := Columns(cols, inner)
	l.Lay(widths)
	lines := make([]string, 0, max(l.Height, 0)+2)
	gutter := Fit("", min(Gutter, w))
	lines = append(lines, p.Header.On(gutter+HeaderRow(widths, cols, inner)))
	if n == 0 {
		return append(lines, Fit(p.Muted.On(empty), w))
	}
	marker := Fit(Marker, min(Gutter, w))
	start, end := l.Window(n)
	for i := start; i < end; i++ {
		sel := l.Highlighted(i)
		if sel {
			lines = append(lines, p.Selected.On(marker)+row(i, widths, inner, true))
		} else {
			lines = append(lines, gutter+row(i, widths, inner, false))
		}
	}
	return lines
}
