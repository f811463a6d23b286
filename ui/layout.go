package ui

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
	defaultWidth     = 80
	defaultHeight    = 24
)

func (m *Model) size() (int, int) {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return defaultWidth, defaultHeight
	}
	return w, h
}

// headerHeight mirrors headerLines without drawing it.
func (m *Model) headerHeight() int {
	n := 1
	if watchBanner(m.s.Watch, m.s.Now) != "" {
		n++
	}
	if m.fleetOpen {
		return n
	}
	if !m.s.HaveRollout {
		return n + 1
	}
	n += 3 + blockerHeight(m.s.Rollout)
	if m.s.Rollout.Strategy != "Recreate" {
		n++
	}
	if m.s.Rollout.Canary != nil {
		n++ // canaryLine
	}
	return n
}

func (m *Model) bodyHeight() int {
	_, h := m.size()
	return max(h-m.headerHeight()-1, 0)
}

// visiblePanes picks which panes fit: all of them on a big terminal,
// otherwise the first ones in tab order with the focused one always shown.
func (m *Model) visiblePanes(n int) []focus {
	if n >= int(paneCount) {
		n = int(paneCount)
	}
	out := make([]focus, 0, n)
	for f := focus(0); int(f) < n; f++ {
		out = append(out, f)
	}
	if int(m.focus) >= n {
		out[n-1] = m.focus
	}
	return out
}

// grid arranges the visible panes in rows and sizes every pane.
func (m *Model) grid() [][]slot {
	w, _ := m.size()
	bodyH := m.bodyHeight()
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
	panes := m.visiblePanes(cols * rows)
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

// layout sizes every visible pane, the overlay and the RC view for the
// current terminal size.
func (m *Model) layout() {
	for _, line := range m.grid() {
		for _, sl := range line {
			m.panes[sl.pane].SetSize(sl.w, max(sl.h-1, 0))
		}
	}
	w, _ := m.size()
	if m.overlay != nil {
		m.overlay.SetSize(w, m.bodyHeight())
	}
	if m.workload != nil {
		m.workload.SetSize(w, m.bodyHeight())
	}
	if m.rc != nil {
		m.rc.SetSize(w, m.bodyHeight())
	}
	if m.fleet != nil {
		m.fleet.SetSize(w, m.bodyHeight())
	}
}
