package draw

import (
	"strings"
	"testing"
)

// A table keeps a gutter before every row; the focused list's cursor row
// carries the marker there, so the selection reads without colour, and
// the columns fit in what is left.
func TestTableMarksTheCursorRowInItsGutter(t *testing.T) {
	cols := []Column{{Title: "NAME", Width: 6}, {Title: "STATE", Width: 0, Min: 5}}
	rows := [][]string{{"web", "ok"}, {"db", "stuck"}, {"cache", "ok"}}
	l := List{Height: 5, Focused: true, Cursor: 1}
	draw := func() []string {
		return l.Table(Paints{}, cols, 20, len(rows), "none", func(i int, widths []int, w int, sel bool) string {
			return Row(widths, cols, rows[i], w)
		})
	}
	got := strings.Join(draw(), "\n")
	want := strings.Join([]string{
		"  NAME   STATE      ",
		"  web    ok         ",
		Marker + " db     stuck      ",
		"  cache  ok         ",
	}, "\n")
	if got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	l.Focused = false
	if got := strings.Join(draw(), "\n"); strings.Contains(got, Marker) {
		t.Errorf("an unfocused list marks a row:\n%s", got)
	}
	if got := Mark(" x", true); got != Marker+"x" {
		t.Errorf("Mark = %q", got)
	}
	if got := Mark(" x", false); got != " x" {
		t.Errorf("Mark of an unselected line = %q", got)
	}
}
