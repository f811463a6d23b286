package ui

import (
	"rollscope/ui/draw"
	"strings"
)

// helpLines is the `?` overlay, generated from the key map: every action
// in its group, disabled ones with the reason, and the pod glyph legend.
func (m *Model) helpLines(w, h int) []string {
	if h <= 0 {
		return nil
	}
	all := m.helpText()
	m.helpOffset = min(m.helpOffset, max(len(all)-h, 0))
	end := min(m.helpOffset+h, len(all))
	out := make([]string, 0, h)
	for _, l := range all[m.helpOffset:end] {
		out = append(out, draw.Fit(l, w))
	}
	return out
}

// helpText lays the groups out in as many columns as the width allows.
func (m *Model) helpText() []string {
	st := m.s.styles
	w, _ := m.size()
	const colW = 52
	var blocks [][]string
	for _, g := range m.keys.Groups() {
		block := []string{st.Accent.Render(g.Title)}
		for i, b := range g.Bindings {
			line := draw.Fit(st.HelpKey.Render(b.Help().Key), 12) + st.HelpDesc.Render(b.Help().Desc)
			if reason := m.keys.DisabledReason(g.Names[i]); reason != "" {
				line = draw.Fit(b.Help().Key, 12) + b.Help().Desc + " — " + reason
				line = st.HelpOff.Render(line)
			}
			block = append(block, line)
		}
		blocks = append(blocks, append(block, ""))
	}
	legend := []string{st.Accent.Render("Pods")}
	for s := range draw.PodGlyphs {
		legend = append(legend, "  "+m.s.paints.Pod[s].On(draw.PodGlyphs[s])+"  "+draw.PodStateNames[s])
	}
	blocks = append(blocks, legend)

	cols := max(min(w/colW, len(blocks)), 1)
	columns := make([][]string, cols)
	for _, b := range blocks {
		shortest := 0
		for c := range columns {
			if len(columns[c]) < len(columns[shortest]) {
				shortest = c
			}
		}
		columns[shortest] = append(columns[shortest], b...)
	}
	height := 0
	for _, c := range columns {
		height = max(height, len(c))
	}
	cw := w / cols
	out := make([]string, 0, height+1)
	out = append(out, st.AppTitle.Render(" keys")+st.Muted.Render("  (esc or ? to close, ↑/↓ to scroll)"))
	for i := 0; i < height; i++ {
		var b strings.Builder
		for c := range columns {
			cell := ""
			if i < len(columns[c]) {
				cell = columns[c][i]
			}
			b.WriteString(draw.Fit(" "+cell, cw))
		}
		out = append(out, b.String())
	}
	return out
}

func (m *Model) scrollHelp(down bool) {
	last := max(len(m.helpText())-m.bodyHeight(), 0)
	if down {
		m.helpOffset = min(m.helpOffset+1, last)
	} else {
		m.helpOffset = max(m.helpOffset-1, 0)
	}
}
