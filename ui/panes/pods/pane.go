// Package pods is the Pods pane: the pods of the ReplicaSet selected in the
// ReplicaSets pane, one row each, as kubectl get pods lists them.
package pods

import (
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Pane is the Pods pane.
type Pane struct {
	s    *screen.Screen
	w, h int
	rows draw.List
}

// New is the pane over s.
func New(s *screen.Screen) *Pane { return &Pane{s: s} }

// podColumns: narrow, PHASE goes first (STATUS says more), then NODE, AGE
// and RESTARTS; NAME, READY and STATUS stay.
var podColumns = []draw.Column{
	{Title: "", Width: 1}, {Title: "NAME", Width: 0, Min: 25, Cut: draw.CutMiddle}, {Title: "READY", Width: 5, Right: true},
	{Title: "STATUS", Width: 17}, {Title: "RESTARTS", Width: 8, Right: true, Drop: 2}, {Title: "AGE", Width: 4, Right: true, Drop: 3},
	{Title: "NODE", Width: 12, Drop: 4}, {Title: "PHASE", Width: 9, Drop: 5},
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h; p.rows.Height = h - 1 }

func (p *Pane) KeyMap() help.KeyMap {
	return keys.Pane{p.s.Keys.Up, p.s.Keys.Down, p.s.Keys.PageDown, p.s.Keys.Select, p.s.Keys.Action(action.Logs)}
}

func (p *Pane) pods() []cluster.PodRow {
	rs, _ := p.s.ReplicaSet()
	return rs.Pods
}

func (p *Pane) Update(msg tea.Msg) (screen.Pane, tea.Cmd) {
	pods := p.pods()
	keyAt := func(i int) string { return pods[i].Name }
	if f, ok := msg.(screen.Focus); ok {
		p.rows.Focused = bool(f)
		return p, nil
	}
	if _, ok := msg.(screen.Refreshed); ok {
		p.rows.Follow(len(pods), keyAt)
		return p, nil
	}
	if p.rows.Move(msg, p.s.Keys, len(pods), keyAt) {
		return p, nil
	}
	if press, ok := msg.(tea.KeyPressMsg); ok && len(pods) > 0 {
		p.rows.Clamp(len(pods))
		return p, open(p.s, press, p.s.Namespace, pods[p.rows.Cursor].Name)
	}
	return p, nil
}

func (p *Pane) View() string {
	if p.h <= 0 {
		return ""
	}
	pods := p.pods()
	// Before the first list has ended, no pods is not "no pods"; nor while
	// the namespace's pods are still to be listed, in a console that
	// watched only some (the fleet of every namespace).
	none := "no pods"
	if !p.s.Watch.Synced || !p.s.Watch.HoldsPods(p.s.Namespace) {
		none = "listing " + draw.Listing(p.s.Watch, "Pod")
	}
	return strings.Join(p.rows.Table(p.s.Paints, podColumns, p.w, len(pods), none, func(i int, widths []int, w int, sel bool) string {
		return p.podRow(pods[i], widths, w, sel)
	}), "\n")
}

func (p *Pane) podRow(pod cluster.PodRow, widths []int, w int, sel bool) string {
	ageStr := draw.Age(p.s.Now, pod.Created)
	st := draw.StateIndex(pod.State)
	// STATUS is kubectl's word; PHASE itself only shows where there is room.
	status := pod.Status
	node := pod.Node
	if node == "" {
		node = "<none>"
	}
	cells := []string{draw.PodGlyphs[st], pod.Name, pod.Ready, status, draw.Itoa(pod.Restarts), ageStr, node, pod.Phase}
	sig := strings.Join(cells, "|")
	return p.rows.Render(pod.Name, sig, w, sel, func() string {
		if sel {
			return p.s.Paints.Selected.On(draw.Row(widths, podColumns, cells, w))
		}
		// The glyph keeps its state colour; the rest of the row is plain
		// unless the pod is in trouble.
		rest := draw.Row(widths[1:], podColumns[1:], cells[1:], w-2)
		switch pod.State {
		case cluster.PodCrashLoop, cluster.PodFailed:
			rest = p.s.Paints.Bad.On(rest)
		case cluster.PodTerminating, cluster.PodPending:
			rest = p.s.Paints.Muted.On(rest)
		}
		return p.s.Paints.Pod[st].On(cells[0]) + " " + rest
	})
}
