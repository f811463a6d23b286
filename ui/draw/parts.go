package draw

import "strings"

// Part is one piece of a line that holds several (a header: where the
// console is, what it shows, its badges, the clock), declared with what
// it gives up first when the line is too narrow.
type Part struct {
	// Text is the piece as drawn, with the spaces that lead it.
	Text string
	// Drop is the order parts go in when the line is too narrow: the
	// highest first, 0 never (a name, a state, a badge).
	Drop int
	// Right puts the part against the right edge (the clock).
	Right bool
	// Cut, when set, shortens the part to the room left once the parts
	// that must go have gone, down to Min cells; it is dropped (by its
	// Drop) only when even Min does not fit.
	Cut func(w int) string
	Min int
}

// Parts lays parts out in one line of exactly w cells: the left parts in
// order, the right ones against the right edge, dropping the parts with
// the highest Drop until the rest fit, and shortening the cuttable ones
// into what is left. The one routine every header gives its priorities to,
// so that at any width what matters most is what stays.
func Parts(parts []Part, w int) string {
	gone := make([]bool, len(parts))
	need := func() int {
		n, right := 0, false
		for i, p := range parts {
			if gone[i] {
				continue
			}
			if p.Cut != nil {
				n += p.Min
			} else {
				n += WidthOf(p.Text)
			}
			right = right || p.Right
		}
		if right {
			n++ // the space before the right parts
		}
		return n
	}
	dropUntil(gone, func(i int) int { return parts[i].Drop }, func() bool { return need() <= w })
	room := w - need()
	var left, right strings.Builder
	for i, p := range parts {
		if gone[i] {
			continue
		}
		text := p.Text
		if p.Cut != nil {
			text = p.Cut(min(p.Min+room, WidthOf(p.Text)))
			room -= max(WidthOf(text)-p.Min, 0)
		}
		if p.Right {
			right.WriteString(text)
		} else {
			left.WriteString(text)
		}
	}
	return JoinEnds(left.String(), right.String(), w)
}

// dropUntil marks gone, one at a time, the item with the highest Drop (the
// last of equals, 0 never) until fits says the rest fit or nothing more
// can go: the one rule of giving up, for table columns and line parts.
func dropUntil(gone []bool, drop func(int) int, fits func() bool) {
	for !fits() {
		worst := -1
		for i := range gone {
			if d := drop(i); !gone[i] && d > 0 && (worst < 0 || d >= drop(worst)) {
				worst = i
			}
		}
		if worst < 0 {
			return
		}
		gone[worst] = true
	}
}
