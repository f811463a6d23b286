package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
)

// nodesPane lists the nodes: readiness, cordons, taints, pods, whether they
// run the current node version, and any drain in progress.
type nodesPane struct {
	s    *screen
	w, h int
	rows list
}

func newNodesPane(s *screen) *nodesPane { return &nodesPane{s: s} }

var nodeColumns = []column{
	{Title: "NAME", Width: 0, Min: 12}, {Title: "GROUP", Width: 10}, {Title: "READY", Width: 8},
	{Title: "SCHED", Width: 8}, {Title: "PODS", Width: 5, Right: true}, {Title: "VERSION", Width: 10},
	{Title: "DRAIN", Width: 12}, {Title: "TAINTS", Width: 0, Min: 6},
}

func (p *nodesPane) SetSize(w, h int) { p.w, p.h = w, h; p.rows.height = h - 1 }

func (p *nodesPane) KeyMap() help.KeyMap {
	k := p.s.keys
	return paneKeys{k.Up, k.Down, k.Cordon, k.Drain}
}

func (p *nodesPane) Update(msg tea.Msg) (Pane, tea.Cmd) {
	nodes := p.s.nodes
	keyAt := func(i int) string { return nodes[i].Name }
	if f, ok := msg.(focusMsg); ok {
		p.rows.focused = bool(f)
		return p, nil
	}
	if _, ok := msg.(refreshedMsg); ok {
		p.rows.follow(len(nodes), keyAt)
		return p, nil
	}
	p.rows.move(msg, p.s.keys, len(nodes), keyAt)
	return p, nil
}

func (p *nodesPane) View() string {
	if p.h <= 0 {
		return ""
	}
	nodes := p.s.nodes
	widths := layoutColumns(nodeColumns, p.w)
	lines := make([]string, 0, p.h)
	lines = append(lines, p.s.paints.header.on(headerRow(widths, nodeColumns, p.w)))
	if len(nodes) == 0 {
		lines = append(lines, fit(p.s.paints.muted.on("no nodes"), p.w))
		return strings.Join(lines, "\n")
	}
	start, end := p.rows.window(len(nodes))
	for i := start; i < end; i++ {
		lines = append(lines, p.nodeRow(nodes[i], widths, p.rows.highlighted(i)))
	}
	return strings.Join(lines, "\n")
}

func (p *nodesPane) nodeRow(n model.NodeRow, widths []int, sel bool) string {
	ready, sched, version := "Ready", "yes", "current"
	if !n.Ready {
		ready = "NotReady"
	}
	if !n.Schedulable {
		sched = "cordoned"
	}
	if !n.UpToDate {
		version = "outdated"
	}
	taints := strings.Join(n.Taints, ",")
	if taints == "" {
		taints = "-"
	}
	drain := n.Drain
	if drain == "" {
		drain = "-"
	}
	cells := []string{n.Name, n.Group, ready, sched, itoa(n.Pods), version, drain, taints}
	return p.rows.render(n.Name, strings.Join(cells, "|"), p.w, sel, func() string {
		line := row(widths, nodeColumns, cells, p.w)
		switch {
		case sel:
			return p.s.paints.selected.on(line)
		case !n.Ready:
			return p.s.paints.bad.on(line)
		case !n.Schedulable || n.Drain != "":
			return p.s.paints.warn.on(line)
		case !n.UpToDate:
			return p.s.paints.muted.on(line)
		}
		return line
	})
}
