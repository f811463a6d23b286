package rollout

import (
	"strings"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// View draws the panes in their grid, each under its title (the tab strip
// when only one fits).
func (p *Page) View() string {
	return strings.Join(p.body(), "\n")
}

func (p *Page) body() []string {
	grid := p.grid()
	single := len(grid) == 1 && len(grid[0]) == 1
	sep := p.s.Styles.Separator.Render("│")
	out := make([]string, 0, p.h)
	for _, line := range grid {
		rowH := line[0].h
		cells := make([][]string, len(line))
		for c, sl := range line {
			var title string
			if single {
				title = p.tabStrip(sl.w)
			} else {
				title = p.paneTitle(sl.pane, sl.w)
			}
			content := strings.Split(p.panes[sl.pane].View(), "\n")
			col := make([]string, 0, rowH)
			col = append(col, title)
			// Panes draw every line exactly their width (fit), so lines
			// are not measured again here: measuring is most of a frame.
			for _, l := range content {
				if len(col) >= rowH {
					break
				}
				if l == "" {
					l = strings.Repeat(" ", sl.w)
				}
				col = append(col, l)
			}
			for len(col) < rowH {
				col = append(col, strings.Repeat(" ", sl.w))
			}
			cells[c] = col
		}
		for i := 0; i < rowH; i++ {
			parts := make([]string, len(cells))
			for c := range cells {
				parts[c] = cells[c][i]
			}
			out = append(out, strings.Join(parts, sep))
		}
	}
	return out
}

func (p *Page) paneTitle(f focus, w int) string {
	st := p.s.Styles
	title := " " + f.String() + p.paneSubtitle(f) + " "
	focused := f == p.focus
	return p.memo.Line("title|"+draw.Itoa(w)+"|"+draw.Flag(focused)+title, func() string {
		if focused {
			// Marked by shape as well as colour: NO_COLOR and monochrome
			// captures must still show where the keys go.
			return draw.Fit(st.PaneTitleFocus.Render("▶"+title), w)
		}
		return draw.Fit(st.PaneTitle.Render(title), w)
	})
}

// paneSubtitle says what a pane is showing when it is not obvious.
func (p *Page) paneSubtitle(f focus) string {
	switch f {
	case focusPods:
		if rs, ok := p.s.ReplicaSet(); ok {
			return " of " + rs.Name + " (" + podCount(rs) + ")"
		}
	case focusNodes:
		if p.s.Watch.MayNotList("Node") {
			return " (not allowed)"
		}
		return " (" + draw.Itoa(len(p.s.Nodes)) + ")"
	case focusHistory:
		if p.history.Opened() {
			return " · diff"
		}
	}
	return ""
}

// podCount is the Pods pane's count: the ReplicaSet's own replicas, and
// apart from them the pods on their way out, which it no longer counts.
func podCount(rs cluster.ReplicaSetRow) string {
	t := cluster.TallyPods(rs.Pods)
	out := draw.Itoa(t.Active)
	if t.Terminating > 0 {
		out += " + " + draw.Itoa(t.Terminating) + " terminating"
	}
	if t.Finished > 0 {
		out += " + " + draw.Itoa(t.Finished) + " finished"
	}
	return out
}

// tabStrip names every pane, the focused one highlighted, when only one
// pane fits.
func (p *Page) tabStrip(w int) string {
	st := p.s.Styles
	sub := p.paneSubtitle(p.focus)
	return p.memo.Line("tabs|"+draw.Itoa(w)+"|"+draw.Itoa(int(p.focus))+"|"+sub, func() string {
		parts := make([]string, 0, paneCount)
		for f := focus(0); f < paneCount; f++ {
			name := f.String()
			if f == p.focus {
				parts = append(parts, st.PaneTitleFocus.Render("▶ "+name+sub))
			} else {
				parts = append(parts, st.PaneTitle.Render(name))
			}
		}
		return draw.Fit(" "+strings.Join(parts, st.Separator.Render(" │ ")), w)
	})
}
