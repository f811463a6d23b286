package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/ui/keys"
)

// podsPane lists the pods of the ReplicaSet selected in the ReplicaSets
// pane, one row each.
type podsPane struct {
	s    *screen
	w, h int
	rows list
}

func newPodsPane(s *screen) *podsPane { return &podsPane{s: s} }

var podColumns = []column{
	{Title: "", Width: 1}, {Title: "NAME", Width: 0, Min: 26}, {Title: "READY", Width: 5, Right: true},
	{Title: "STATUS", Width: 16}, {Title: "RESTARTS", Width: 8, Right: true}, {Title: "AGE", Width: 4, Right: true},
	{Title: "NODE", Width: 12}, {Title: "PHASE", Width: 9},
}

func (p *podsPane) SetSize(w, h int) { p.w, p.h = w, h; p.rows.height = h - 1 }

func (p *podsPane) KeyMap() help.KeyMap {
	return keys.Pane{p.s.keys.Up, p.s.keys.Down, p.s.keys.PageDown}
}

func (p *podsPane) pods() []model.PodRow {
	rs, _ := p.s.replicaSet()
	return rs.Pods
}

func (p *podsPane) Update(msg tea.Msg) (Pane, tea.Cmd) {
	pods := p.pods()
	keyAt := func(i int) string { return pods[i].Name }
	if f, ok := msg.(focusMsg); ok {
		p.rows.focused = bool(f)
		return p, nil
	}
	if _, ok := msg.(refreshedMsg); ok {
		p.rows.follow(len(pods), keyAt)
		return p, nil
	}
	p.rows.move(msg, p.s.keys, len(pods), keyAt)
	return p, nil
}

func (p *podsPane) View() string {
	if p.h <= 0 {
		return ""
	}
	pods := p.pods()
	widths := layoutColumns(podColumns, p.w)
	lines := make([]string, 0, p.h)
	lines = append(lines, p.s.paints.header.on(headerRow(widths, podColumns, p.w)))
	if len(pods) == 0 {
		lines = append(lines, fit(p.s.paints.muted.on("no pods"), p.w))
		return strings.Join(lines, "\n")
	}
	start, end := p.rows.window(len(pods))
	for i := start; i < end; i++ {
		lines = append(lines, p.podRow(pods[i], widths, p.rows.highlighted(i)))
	}
	return strings.Join(lines, "\n")
}

func (p *podsPane) podRow(pod model.PodRow, widths []int, sel bool) string {
	ageStr := age(p.s.now, pod.Created)
	st := stateIndex(pod.State)
	// STATUS is kubectl's: the telling reason when there is one, else the
	// phase; PHASE itself only shows where there is room.
	status := pod.Reason
	if status == "" {
		status = pod.Phase
	}
	node := pod.Node
	if node == "" {
		node = "<none>"
	}
	cells := []string{podGlyphs[st], pod.Name, pod.Ready, status, itoa(pod.Restarts), ageStr, node, pod.Phase}
	sig := strings.Join(cells, "|")
	return p.rows.render(pod.Name, sig, p.w, sel, func() string {
		if sel {
			return p.s.paints.selected.on(row(widths, podColumns, cells, p.w))
		}
		// The glyph keeps its state colour; the rest of the row is plain
		// unless the pod is in trouble.
		rest := row(widths[1:], podColumns[1:], cells[1:], p.w-2)
		switch pod.State {
		case model.PodCrashLoop, model.PodFailed:
			rest = p.s.paints.bad.on(rest)
		case model.PodTerminating, model.PodPending:
			rest = p.s.paints.muted.on(rest)
		}
		return p.s.paints.pod[st].on(cells[0]) + " " + rest
	})
}
