// Package draw is how every line of the console is drawn: cut or padded to
// exactly its width (so panes never wrap into each other), wrapped, laid out
// in columns, coloured with pre-split paints; the scrolling row list with its
// render cache; the pod glyphs and the headroom bar.
package draw

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Fit makes s exactly w cells wide: cut with "…" when too long, padded with
// spaces when short. Every line the console prints goes through it, which
// is what keeps panes from wrapping into each other.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n, plain := asciiWidth(s)
	if plain && n > w {
		return s[:w-1] + "…"
	}
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = width(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// FitRight is Fit with the text against the right edge, for numbers.
func FitRight(s string, w int) string {
	n := width(s)
	if n >= w {
		return Fit(s, w)
	}
	return strings.Repeat(" ", w-n) + s
}

// Paint is a style split into the escape codes before and after its text,
// so hot paths (glyphs, table cells) colour text by concatenation instead of
// a full lipgloss render per cell.
type Paint struct{ pre, post string }

func NewPaint(st lipgloss.Style) Paint {
	const mark = "\x00"
	out := st.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return Paint{}
	}
	return Paint{pre: out[:i], post: out[i+len(mark):]}
}

// On colours s.
func (p Paint) On(s string) string {
	if s == "" || (p.pre == "" && p.post == "") {
		return s
	}
	return p.pre + s + p.post
}

// Age is a kubectl-like short age: 45s, 12m, 5h, 3d, and from two years,
// where kubectl too turns to years, 3y — never more than four cells, the
// age columns' width, so that a pod or revision years old never reads a
// false "100…".
func Age(now, t time.Time) string {
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
	case d < 2*year:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return strconv.Itoa(int(d/year)) + "y"
}

// year is kubectl's: 365 days.
const year = 365 * 24 * time.Hour

// Column is one column of a table row: a fixed width, or flexible (Width
// 0) sharing what the fixed ones leave, never narrower than Min. A fixed
// column with a Min in a table that declares Drop may narrow to its Min
// once every column that can go has gone, rather than be cut off.
type Column struct {
	Title string
	Width int
	Min   int
	Right bool
	// Cut shortens a plain cell that does not fit (CutMiddle, CutImages);
	// nil cuts the end.
	Cut func(s string, w int) string
	// Drop, when any column of a table sets it, is the order columns go
	// in when the table is too narrow: the highest first, 0 never. The
	// columns kept are then the same at every width that keeps them. It
	// is each view's declaration of what it gives up first (KIND, AGE,
	// CHANGE-CAUSE) to keep what matters (NAME, PROGRESS, STATE).
	Drop int
}

// Columns resolves the widths for a total width. Columns are listed
// by importance: the flexible ones keep their minimum, fixed ones are added
// left to right while they fit, and the first that does not fit is dropped
// with everything after it (width 0).
func Columns(cols []Column, total int) []int {
	if slices.ContainsFunc(cols, func(c Column) bool { return c.Drop > 0 }) {
		return columnsByDrop(cols, total)
	}
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

// columnsByDrop drops the columns with the highest Drop until the rest fit,
// then sizes those that are left as Columns does.
func columnsByDrop(cols []Column, total int) []int {
	dropped := make([]bool, len(cols))
	need := func() int {
		n := -1
		for i, c := range cols {
			if !dropped[i] {
				n += max(c.Width, c.Min) + 1
			}
		}
		return n
	}
	dropUntil(dropped, func(i int) int { return cols[i].Drop }, func() bool { return need() <= total })
	var live []Column
	var at []int
	for i, c := range cols {
		if !dropped[i] {
			c.Drop = 0
			live = append(live, c)
			at = append(at, i)
		}
	}
	// What must stay but still does not fit narrows to its Min, the
	// rightmost first, instead of being cut off with what follows it.
	over := -1 - total
	for _, c := range live {
		over += max(c.Width, c.Min) + 1
	}
	for j := len(live) - 1; j >= 0 && over > 0; j-- {
		if c := &live[j]; c.Width > 0 && c.Min > 0 && c.Width > c.Min {
			cut := min(over, c.Width-c.Min)
			c.Width -= cut
			over -= cut
		}
	}
	widths := make([]int, len(cols))
	for j, w := range Columns(live, total) {
		widths[at[j]] = w
	}
	return widths
}

// Row joins cells into one line of the given column widths.
func Row(widths []int, cols []Column, cells []string, total int) string {
	var b strings.Builder
	for i, w := range widths {
		if w == 0 || i >= len(cells) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		cell := cells[i]
		if cols[i].Cut != nil {
			cell = cols[i].Cut(cell, w)
		}
		if cols[i].Right {
			b.WriteString(FitRight(cell, w))
		} else {
			b.WriteString(Fit(cell, w))
		}
	}
	return Fit(b.String(), total)
}

// Numbers widens each right-aligned column — the counts — to its widest
// cell, so a count is never cut: "100…" for 10000 would be a false figure.
// rows are the cells as Row takes them.
func Numbers(cols []Column, rows [][]string) []Column {
	out := slices.Clone(cols)
	for i := range out {
		if !out[i].Right {
			continue
		}
		for _, r := range rows {
			if i < len(r) {
				out[i].Width = max(out[i].Width, WidthOf(r[i]))
			}
		}
	}
	return out
}

// HeaderRow is the row of the columns' titles.
func HeaderRow(widths []int, cols []Column, total int) string {
	cells := make([]string, len(cols))
	for i, c := range cols {
		cells[i] = c.Title
	}
	return Row(widths, cols, cells, total)
}

// Itoa writes a whole number in decimal.
func Itoa[T ~int | ~int32 | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

// DigitsOf is the width of Itoa(n), without making the string.
func DigitsOf[T ~int | ~int32 | ~int64](n T) int {
	w := 1
	if n < 0 {
		w++
	}
	for n >= 10 || n <= -10 {
		n /= 10
		w++
	}
	return w
}

// Thousands writes a count with a comma between each three digits, as
// "12,000", so that a large one reads at a glance.
func Thousands(n int) string {
	digits := strconv.Itoa(max(n, 0))
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// WidthOf is how many cells s takes on screen.
func WidthOf(s string) int { return width(s) }

// width is s's width in cells. Most of what a table draws is printable
// ASCII without escape codes, one cell a byte: measuring that by grapheme
// cluster was most of a frame of the fleet's 2,000 rows.
func width(s string) int {
	n, _ := asciiWidth(s)
	return n
}

// asciiWidth is width, and whether s is plain printable ASCII.
func asciiWidth(s string) (int, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return cells(s), false
		}
	}
	return len(s), true
}

// OrDash is s, or "-" when it is empty.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Wrap breaks text into lines of at most w cells at spaces; a word longer
// than w is left whole for Fit to cut.
func Wrap(text string, w int) []string {
	if w <= 0 {
		return []string{text}
	}
	var out []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case WidthOf(line)+1+WidthOf(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	return append(out, line)
}

// WrapAtMost is Wrap kept to n lines: when the text needs more, the last
// line kept ends in "…", so a cut always shows it was cut.
func WrapAtMost(text string, w, n int) []string {
	lines := Wrap(text, w)
	if n <= 0 || len(lines) <= n {
		return lines
	}
	rest := strings.Join(lines[n-1:], " ")
	lines = lines[:n]
	lines[n-1] = ansi.Truncate(rest, max(w-1, 1), "") + "…"
	return lines
}

// Hanging wraps text after head into at most n lines of exactly w cells,
// the lines after the first indented under the text, each line's text in
// style: a sentence (kubectl's status, the why line) takes a second line
// before it is cut.
func Hanging(head string, style func(...string) string, text string, w, n int) []string {
	indent := WidthOf(head)
	lines := WrapAtMost(text, max(w-indent, 1), n)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = Fit(head+style(l), w)
		head = strings.Repeat(" ", indent)
	}
	return out
}

// Lines builds a view of at most H lines, each exactly W cells wide.
type Lines struct {
	W, H int
	out  []string
}

// Add adds lines, each cut or padded to the width.
func (l *Lines) Add(lines ...string) {
	for _, s := range lines {
		l.out = append(l.out, Fit(s, l.W))
	}
}

// Wrap adds text wrapped to the width in style: the first line starts with
// indent, the others with as many spaces, so reasons and plans keep their
// point instead of being cut off.
func (l *Lines) Wrap(style func(...string) string, indent, text string) {
	for _, line := range Wrap(text, l.W-len([]rune(indent))) {
		l.Add(style(indent + line))
		indent = strings.Repeat(" ", len([]rune(indent)))
	}
}

// All is every line added, however many: what a Frame scrolls through.
func (l *Lines) All() []string { return l.out }

// Left is how many more lines the view has room for.
func (l *Lines) Left() int { return max(l.H-len(l.out), 0) }

// Full reports whether the view has all its lines.
func (l *Lines) Full() bool { return len(l.out) >= l.H }

// String is the view: its first H lines.
func (l *Lines) String() string {
	if len(l.out) > l.H {
		l.out = l.out[:max(l.H, 0)]
	}
	return strings.Join(l.out, "\n")
}

// JoinEnds puts right against the right edge when both fit, else drops
// what does not fit of left.
func JoinEnds(left, right string, w int) string {
	if right == "" {
		return Fit(left, w)
	}
	rw := WidthOf(right)
	if rw >= w {
		return Fit(right, w)
	}
	return Fit(left, w-rw-1) + " " + right
}
