package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// fit makes s exactly w cells wide: cut with "…" when too long, padded with
// spaces when short. Every line the console prints goes through it, which
// is what keeps panes from wrapping into each other.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = ansi.StringWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// fitRight is fit with the text against the right edge, for numbers.
func fitRight(s string, w int) string {
	n := ansi.StringWidth(s)
	if n >= w {
		return fit(s, w)
	}
	return strings.Repeat(" ", w-n) + s
}

// paint is a style split into the escape codes before and after its text,
// so hot paths (glyphs, table cells) colour text by concatenation instead of
// a full lipgloss render per cell.
type paint struct{ pre, post string }

func newPaint(st lipgloss.Style) paint {
	const mark = "\x00"
	out := st.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return paint{}
	}
	return paint{pre: out[:i], post: out[i+len(mark):]}
}

func (p paint) on(s string) string {
	if s == "" || (p.pre == "" && p.post == "") {
		return s
	}
	return p.pre + s + p.post
}

// age is a kubectl-like short age: 45s, 12m, 5h, 3d.
func age(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "0s"
	case d < 2*time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < 2*time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	default:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
}

// column is one column of a table row: a fixed width, or flexible (Width
// 0) sharing what the fixed ones leave, never narrower than Min.
type column struct {
	Title string
	Width int
	Min   int
	Right bool
}

// layoutColumns resolves the widths for a total width. Columns are listed
// by importance: the flexible ones keep their minimum, fixed ones are added
// left to right while they fit, and the first that does not fit is dropped
// with everything after it (width 0).
func layoutColumns(cols []column, total int) []int {
	widths := make([]int, len(cols))
	// Every column but the first is preceded by a space.
	used, flex := -1, 0
	for _, c := range cols {
		if c.Width == 0 {
			flex++
			used += c.Min + 1
		}
	}
	for i, c := range cols {
		if c.Width == 0 {
			continue
		}
		if used+c.Width+1 > total {
			break
		}
		widths[i] = c.Width
		used += c.Width + 1
	}
	if flex > 0 {
		share := max((total-used)/flex, 0)
		for i, c := range cols {
			if c.Width == 0 {
				widths[i] = c.Min + share
			}
		}
	}
	return widths
}

// row joins cells into one line of the given column widths.
func row(widths []int, cols []column, cells []string, total int) string {
	var b strings.Builder
	for i, w := range widths {
		if w == 0 || i >= len(cells) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if cols[i].Right {
			b.WriteString(fitRight(cells[i], w))
		} else {
			b.WriteString(fit(cells[i], w))
		}
	}
	return fit(b.String(), total)
}

func headerRow(widths []int, cols []column, total int) string {
	cells := make([]string, len(cols))
	for i, c := range cols {
		cells[i] = c.Title
	}
	return row(widths, cols, cells, total)
}

func itoa[T ~int | ~int32 | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func widthOf(s string) int { return ansi.StringWidth(s) }
