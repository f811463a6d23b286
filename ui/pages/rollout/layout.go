package rollout

import "rollscope/ui/draw"

// slot is where one pane goes on screen.
type slot struct {
	pane focus
	w, h int // including the pane's title line
}

// Terminal widths at which more panes fit side by side, and the body height
// from which panes stack in two rows.
const (
	twoColumnsFrom   = 120
	threeColumnsFrom = 200
	twoRowsFrom      = 30
)

// HeaderHeight mirrors Header at width w without drawing it.
func (p *Page) HeaderHeight(w int) int {
	n := 1
	if !p.s.HaveRollout {
		return n + 1
	}
	n += 2 + len(draw.WrapAtMost(p.status(), max(w-2, 1), sentenceLines)) + blockerHeight(p.s.Rollout, w)
	if p.s.Rollout.Strategy != "Recreate" {
		n++
	}
	if p.s.Rollout.Canary != nil {
		n += 1 + len(p.s.Rollout.Canary.Metrics) // canaryLine, a line per metric gate
	}
	return n
}

// visiblePanes picks which panes fit: all of them on a big terminal,
// otherwise the first ones in tab order with the focused one always shown.
func (p *Page) visiblePanes(n int) []focus {
	if n >= int(paneCount) {
		n = int(paneCount)
	}
	out := make([]focus, 0, n)
	for f := focus(0); int(f) < n; f++ {
		out = append(out, f)
	}
	if int(p.focus) >= n {
		out[n-1] = p.focus
	}
	return out
}

// grid arranges the visible panes in rows and sizes every pane.
func (p *Page) grid() [][]slot {
	w, bodyH := p.w, p.h
	cols := 1
	switch {
	case w >= threeColumnsFrom:
		cols = 3
	case w >= twoColumnsFrom:
		cols = 2
	}
	rows := 1
	if cols > 1 && bodyH >= twoRowsFrom {
		rows = 2
	}
	panes := p.visiblePanes(cols * rows)
	rows = min(rows, len(panes))
	var out [][]slot
	next := 0
	for r := 0; r < rows; r++ {
		count := len(panes) / rows
		if r < len(panes)%rows {
			count++
		}
		rowH := bodyH / rows
		if r == rows-1 {
			rowH = bodyH - rowH*(rows-1)
		}
		// Panes in a row share the width, minus one column per separator.
		avail := w - (count - 1)
		var line []slot
		for c := 0; c < count; c++ {
			sw := avail / count
			if c == count-1 {
				sw = avail - sw*(count-1)
			}
			line = append(line, slot{pane: panes[next], w: sw, h: rowH})
			next++
		}
		out = append(out, line)
	}
	return out
}

// SetSize sizes the page to the body, and every visible pane to its slot.
func (p *Page) SetSize(w, h int) {
	p.w, p.h = w, h
	p.layout()
}

func (p *Page) layout() {
	for _, line := range p.grid() {
		for _, sl := range line {
			p.panes[sl.pane].SetSize(sl.w, max(sl.h-1, 0))
		}
	}
}
