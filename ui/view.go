package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// View draws the whole screen: exactly the terminal's height in lines, none
// wider than its width.
func (m Model) View() tea.View {
	v := tea.NewView(m.drawn()) // pace.go
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "rollscope " + m.s.Namespace + "/" + m.s.Deployment
	if m.fleetOpen {
		v.WindowTitle = "rollscope fleet"
	}
	return v
}

// Render is the screen's content as a string, the part of View tests and
// golden files look at.
func (m Model) Render() string {
	w, h := m.size()
	lines := make([]string, 0, h)
	lines = append(lines, m.headerLines(w)...)
	bodyH := max(h-len(lines)-1, 0)
	switch {
	case m.overlay != nil:
		lines = append(lines, viewLines(m.overlay.View())...)
	case m.fleetOpen:
		lines = append(lines, viewLines(m.fleet.View())...)
	case m.rc != nil:
		lines = append(lines, viewLines(m.rc.View())...)
	case m.workload != nil:
		lines = append(lines, viewLines(m.workload.View())...)
	default:
		lines = append(lines, m.body(bodyH)...)
	}
	// Overlays may be shorter than the body; the footer stays at the
	// bottom.
	for len(lines) < h-1 {
		lines = append(lines, strings.Repeat(" ", w))
	}
	lines = append(lines, m.footer(w))
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

// viewLines are a component's lines; none for an empty view.
func viewLines(view string) []string {
	if view == "" {
		return nil
	}
	return strings.Split(view, "\n")
}

func (m *Model) body(bodyH int) []string {
	grid := m.grid()
	single := len(grid) == 1 && len(grid[0]) == 1
	sep := m.s.Styles.Separator.Render("│")
	out := make([]string, 0, bodyH)
	for _, line := range grid {
		rowH := line[0].h
		cells := make([][]string, len(line))
		for c, sl := range line {
			var title string
			if single {
				title = m.tabStrip(sl.w)
			} else {
				title = m.paneTitle(sl.pane, sl.w)
			}
			content := strings.Split(m.panes[sl.pane].View(), "\n")
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

func (m *Model) paneTitle(f focus, w int) string {
	st := m.s.Styles
	title := " " + f.String() + m.paneSubtitle(f) + " "
	focused := f == m.focus
	return m.memo.line("title|"+draw.Itoa(w)+"|"+boolKey(focused)+title, func() string {
		if focused {
			// Marked by shape as well as colour: NO_COLOR and monochrome
			// captures must still show where the keys go.
			return draw.Fit(st.PaneTitleFocus.Render("▶"+title), w)
		}
		return draw.Fit(st.PaneTitle.Render(title), w)
	})
}

func boolKey(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// paneSubtitle says what a pane is showing when it is not obvious.
func (m *Model) paneSubtitle(f focus) string {
	switch f {
	case focusPods:
		if rs, ok := m.s.ReplicaSet(); ok {
			return " of " + rs.Name + " (" + podCount(rs) + ")"
		}
	case focusNodes:
		if m.s.Watch.MayNotList("Node") {
			return " (not allowed)"
		}
		return " (" + draw.Itoa(len(m.s.Nodes)) + ")"
	case focusHistory:
		if m.history.DiffOpen() {
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
func (m *Model) tabStrip(w int) string {
	st := m.s.Styles
	sub := m.paneSubtitle(m.focus)
	return m.memo.line("tabs|"+draw.Itoa(w)+"|"+draw.Itoa(int(m.focus))+"|"+sub, func() string {
		parts := make([]string, 0, paneCount)
		for f := focus(0); f < paneCount; f++ {
			name := f.String()
			if f == m.focus {
				parts = append(parts, st.PaneTitleFocus.Render("▶ "+name+sub))
			} else {
				parts = append(parts, st.PaneTitle.Render(name))
			}
		}
		return draw.Fit(" "+strings.Join(parts, st.Separator.Render(" │ ")), w)
	})
}

// footer is the toast when there is one, else the overlay's keys, else the
// focused pane's keys and the global ones.
func (m *Model) footer(w int) string {
	st := m.s.Styles
	if m.s.Toast != "" {
		// A toast's hint (what to do) comes after its " — ": keep it.
		return draw.Fit(st.Warn.Render(draw.CutKeepingHint(" "+m.s.Toast, w)), w)
	}
	var bindings []key.Binding
	switch {
	case m.overlay != nil:
		bindings = m.overlay.KeyMap().ShortHelp()
	case m.fleetOpen:
		bindings = m.fleetFooter()
	default:
		bindings = append(m.panes[m.focus].KeyMap().ShortHelp(), m.s.Keys.ShortHelp()...)
	}
	// The footer's keys change with the focus and the overlay, not with
	// the counts: kept by what it lists.
	type entry struct {
		key, desc string
		keep      bool
	}
	shown := make([]entry, 0, len(bindings))
	key := "footer|" + draw.Itoa(w)
	for _, b := range bindings {
		if !b.Enabled() {
			continue
		}
		// Help and quit are never cut off: help lists every key the
		// footer has no room for.
		keep := m.overlay == nil && (b.Help() == m.s.Keys.Help.Help() || b.Help() == m.s.Keys.Quit.Help())
		shown = append(shown, entry{b.Help().Key, b.Help().Desc, keep})
		key += "|" + boolKey(keep) + b.Help().Key + "\x1f" + b.Help().Desc
	}
	return m.memo.line(key, func() string {
		var parts, keep []string
		for _, e := range shown {
			part := st.HelpKey.Render(e.key) + " " + st.HelpDesc.Render(e.desc)
			if e.keep {
				keep = append(keep, part)
				continue
			}
			parts = append(parts, part)
		}
		sep := st.Muted.Render(" · ")
		for len(parts) > 0 && draw.WidthOf(" "+strings.Join(append(append([]string(nil), parts...), keep...), sep)) > w {
			parts = parts[:len(parts)-1]
		}
		return draw.Fit(" "+strings.Join(append(parts, keep...), sep), w)
	})
}
