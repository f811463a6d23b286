package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/ui/draw"
)

// View draws the whole screen: exactly the terminal's height in lines, none
// wider than its width.
func (m Model) View() tea.View {
	v := tea.NewView(m.drawn()) // pace.go
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = m.top().Title()
	return v
}

// Render is the screen's content as a string, the part of View tests and
// golden files look at: the watch banner, the page's header, the overlay
// or the page's body, and the footer.
func (m Model) Render() string {
	w, h := m.size()
	lines := make([]string, 0, h)
	if banner := watchBanner(m.s.Watch, m.s.Now); banner != "" {
		lines = append(lines, m.s.Styles.Banner.Render(draw.Fit(" "+banner, w)))
	}
	lines = append(lines, m.top().Header(w, m.clockText())...)
	if m.overlay != nil {
		lines = append(lines, viewLines(m.overlay.View())...)
	} else {
		lines = append(lines, viewLines(m.top().View())...)
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

// Terminal size before the first WindowSizeMsg.
const (
	defaultWidth  = 80
	defaultHeight = 24
)

func (m *Model) size() (int, int) {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return defaultWidth, defaultHeight
	}
	return w, h
}

// layout sizes every page in the stack and the overlay to the body: the
// terminal less the banner, the page's header and the footer.
func (m *Model) layout() {
	w, h := m.size()
	header := m.top().HeaderHeight(w)
	if watchBanner(m.s.Watch, m.s.Now) != "" {
		header++
	}
	bodyH := max(h-header-1, 0)
	for _, p := range m.pages {
		p.SetSize(w, bodyH)
	}
	if m.overlay != nil {
		m.overlay.SetSize(w, bodyH)
	}
}

// footer is the toast when there is one, else the overlay's keys, else the
// page's.
func (m *Model) footer(w int) string {
	st := m.s.Styles
	if m.s.Toast != "" {
		// A toast's hint (what to do) comes after its " — ": keep it.
		return draw.Fit(st.Warn.Render(draw.CutKeepingHint(" "+m.s.Toast, w)), w)
	}
	bindings := m.top().KeyMap().ShortHelp()
	if m.overlay != nil {
		bindings = m.overlay.KeyMap().ShortHelp()
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
		key += "|" + draw.Flag(keep) + b.Help().Key + "\x1f" + b.Help().Desc
	}
	return m.memo.Line(key, func() string {
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
