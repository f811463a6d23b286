package replicasets

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/panes/pods"
)

// The glyph cursor: → on a ReplicaSet's row steps onto its pods' glyphs,
// ←/→ move one pod, ↑/↓ one line of the grid, enter opens the pod's
// detail, l its logs, esc goes back to the row. enter on the row itself is
// left to the row ("its pods"). The pod under the cursor is drawn in the
// selection's reverse video and named on a line under its glyph, which
// reads the same without colour (NO_COLOR).
var (
	left     = key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous pod"))
	right    = key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "pick a pod"))
	toGlyphs = right

	glyphHelp = keys.Hints("←/→/↑/↓", "pod", "enter", "details", "l", "logs", "esc", "back")
)

// enterGlyphs steps onto the first glyph of the ReplicaSet under the
// cursor on →; it reports whether it did.
func (p *Pane) enterGlyphs(msg tea.Msg) bool {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok || !key.Matches(press, right) {
		return false
	}
	rs, ok := p.s.ReplicaSet()
	if !ok || len(rs.Pods) == 0 {
		p.s.Toast = "the ReplicaSet has no pods"
		return true
	}
	p.glyphRS, p.glyph, p.at = rs.Name, rs.Pods[0].Name, 0
	p.s.Glyph = p.glyph
	return true
}

// leaveGlyphs puts the cursor back on the ReplicaSet's row.
func (p *Pane) leaveGlyphs() {
	p.glyphRS, p.glyph, p.at = "", "", 0
	p.s.Glyph = ""
}

// glyphKey answers a key while the cursor is on a glyph; it reports
// whether the key was the glyph cursor's.
func (p *Pane) glyphKey(msg tea.Msg) (tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	rs, ok := p.s.ReplicaSet()
	if !ok || len(rs.Pods) == 0 {
		p.leaveGlyphs()
		return nil, false
	}
	k := p.s.Keys
	at, gw := p.at, p.gridWidth()
	switch {
	case key.Matches(press, k.Back):
		p.leaveGlyphs()
		return nil, true
	case key.Matches(press, k.Select):
		return pods.OpenDetail(p.s, p.s.Namespace, p.glyph), true
	case key.Matches(press, k.Action(action.Logs)):
		return pods.OpenLogs(p.s, p.s.Namespace, p.glyph), true
	case key.Matches(press, left):
		at--
	case key.Matches(press, right):
		at++
	case key.Matches(press, k.Up):
		at -= gw
	case key.Matches(press, k.Down):
		at += gw
	case key.Matches(press, k.Top):
		at = 0
	case key.Matches(press, k.Bottom):
		at = len(rs.Pods) - 1
	default:
		return nil, false
	}
	if at < 0 || at >= len(rs.Pods) {
		at = p.at // the grid's edge: stay
	}
	p.at, p.glyph = at, rs.Pods[at].Name
	p.s.Glyph = p.glyph
	return nil, true
}

// followGlyph keeps the glyph cursor on its pod as the grid changes: on
// the same pod wherever it moved, else on the glyph in its place; it goes
// back to the row when the ReplicaSet is no longer the one selected or
// has no pods left.
func (p *Pane) followGlyph() {
	if p.glyph == "" {
		return
	}
	rs, ok := p.s.ReplicaSet()
	if !ok || rs.Name != p.glyphRS || len(rs.Pods) == 0 {
		p.leaveGlyphs()
		return
	}
	for i, pod := range rs.Pods {
		if pod.Name == p.glyph {
			p.at = i
			return
		}
	}
	p.at = min(p.at, len(rs.Pods)-1)
	p.glyph = rs.Pods[p.at].Name
	p.s.Glyph = p.glyph
}

// pickLine is line j of the grid of the ReplicaSet the glyph cursor is
// in: the grid's lines with the cursor's glyph in reverse video, and under
// its line one that points at it and names the pod.
func (p *Pane) pickLine(rs cluster.ReplicaSetRow, j int) string {
	gw := p.gridWidth()
	sel := p.at / gw
	switch {
	case j == sel+1:
		return p.caretLine(rs.Pods[p.at], p.at%gw)
	case j > sel+1:
		j--
	}
	var b strings.Builder
	b.WriteString("  ")
	for i := j * gw; i < min((j+1)*gw, len(rs.Pods)); i++ {
		st := draw.StateIndex(rs.Pods[i].State)
		if i == p.at {
			b.WriteString(p.s.Paints.Selected.On(draw.PodGlyphs[st]))
			continue
		}
		b.WriteString(p.s.Paints.Pod[st].On(draw.PodGlyphs[st]))
	}
	return draw.Fit(b.String(), p.w)
}

// caretLine points up at the glyph in column col of the grid and names
// its pod: "↑ web-7b7d-x2x9 ImagePullBackOff 0/1".
func (p *Pane) caretLine(pod cluster.PodRow, col int) string {
	info := pod.Name + " " + pod.Status + " " + pod.Ready
	if pod.Restarts > 0 {
		info += " ↻" + draw.Itoa(pod.Restarts)
	}
	var line string
	if 2+col+2+draw.WidthOf(info) <= p.w {
		line = strings.Repeat(" ", 2+col) + "↑ " + info
	} else {
		line = strings.Repeat(" ", max(2+col-draw.WidthOf(info)-1, 0)) + info + " ↑"
	}
	return draw.Fit(p.s.Paints.Accent.On(line), p.w)
}
