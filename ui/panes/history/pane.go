// Package history is the History pane: the deployment's revisions, oldest
// first as kubectl prints them, and how a revision's pod template differs
// from the current one.
package history

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Pane is the History pane; enter shows how the selected revision's pod
// template differs from the current one.
type Pane struct {
	s    *screen.Screen
	w, h int
	rows draw.List

	// diff is open when diffRev != 0.
	diffRev  int64
	diff     []cluster.DiffLine
	diffErr  error
	diffRows draw.List
}

// New is the pane over s.
func New(s *screen.Screen) *Pane { return &Pane{s: s} }

// historyColumns: narrow, CHANGE-CAUSE goes first, then AGE and REPLICAS;
// the revision and its images stay.
var historyColumns = []draw.Column{
	{Title: "", Width: 1}, {Title: "REV", Width: 4, Right: true}, {Title: "REPLICAS", Width: 8, Right: true, Drop: 1},
	{Title: "AGE", Width: 4, Right: true, Drop: 2}, {Title: "CHANGE-CAUSE", Width: 0, Min: 20, Drop: 3}, {Title: "IMAGES", Width: 0, Min: 10, Cut: draw.CutImages},
}

func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.rows.Height = h - 1
	p.diffRows.Height = h - 1
}

func (p *Pane) KeyMap() help.KeyMap {
	k := p.s.Keys
	if p.diffRev != 0 {
		back := k.Back
		back.SetHelp(back.Help().Key, "close diff")
		return keys.Pane{k.Up, k.Down, back}
	}
	sel := k.Select
	sel.SetHelp(sel.Help().Key, "diff with current")
	return keys.Pane{k.Up, k.Down, sel, k.Action(action.Undo)}
}

// Opened reports whether the pane is showing a diff (screen.Opener): esc
// closes it, and the pane's title says so.
func (p *Pane) Opened() bool { return p.diffRev != 0 }

// CloseDiff goes back to the list: another deployment is shown.
func (p *Pane) CloseDiff() { p.diffRev = 0 }

func (p *Pane) Update(msg tea.Msg) (screen.Pane, tea.Cmd) {
	hist := p.s.Rollout.History
	keyAt := func(i int) string { return draw.Itoa(hist[i].Revision) }
	if f, ok := msg.(screen.Focus); ok {
		p.rows.Focused = bool(f)
		p.noteSelected()
		return p, nil
	}
	defer p.noteSelected()
	if _, ok := msg.(screen.Refreshed); ok {
		if p.rows.Selected == "" {
			// Start on the current revision: the one to compare from.
			for i, r := range hist {
				if r.Current {
					p.rows.Cursor = i
				}
			}
		}
		p.rows.Follow(len(hist), keyAt)
		return p, nil
	}
	if p.diffRev != 0 {
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, p.s.Keys.Back) {
			p.diffRev, p.diff, p.diffErr = 0, nil, nil
			return p, nil
		}
		p.diffRows.Move(msg, p.s.Keys, len(p.diff), func(i int) string { return draw.Itoa(i) })
		return p, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, p.s.Keys.Select) && len(hist) > 0 {
		p.rows.Clamp(len(hist))
		rev := hist[p.rows.Cursor].Revision
		p.diffRev = rev
		p.diff, p.diffErr = p.s.Src.RevisionDiff(p.s.Namespace, p.s.Deployment, rev)
		p.diffRows = draw.List{Height: p.h - 1}
		return p, nil
	}
	p.rows.Move(msg, p.s.Keys, len(hist), keyAt)
	return p, nil
}

func (p *Pane) View() string {
	if p.h <= 0 {
		return ""
	}
	if p.diffRev != 0 {
		return p.diffView()
	}
	hist := p.s.Rollout.History
	cells := make([][]string, len(hist))
	for i, r := range hist {
		cells[i] = p.revisionCells(r)
	}
	// A service deployed a few times a day for years is past revision
	// 10000: the counts are never cut to a false "100…".
	cols := draw.Numbers(historyColumns, cells)
	return strings.Join(p.rows.Table(p.s.Paints, cols, p.w, len(hist), "no revisions yet", func(i int, widths []int, w int, sel bool) string {
		return p.revisionRow(hist[i], cells[i], cols, widths, w, sel)
	}), "\n")
}

// revisionCells are a revision's cells, as historyColumns lists them.
func (p *Pane) revisionCells(r cluster.RevisionRow) []string {
	mark, replicas, cause := " ", draw.Itoa(r.Replicas), r.ChangeCause
	if r.Current {
		mark = "*"
	}
	if r.Gone {
		// An undo moved its ReplicaSet to a new number.
		replicas = "→rev " + draw.Itoa(r.Now)
	}
	if cause == "" {
		cause = "<none>"
	}
	if r.Aborted != "" {
		// kubectl's change-cause first, as `kubectl rollout history`
		// prints it; then what became of the rollout, which enter shows
		// in full however narrow the column.
		cause += " · " + r.Aborted
		if r.Replicas == 0 {
			replicas = "aborted"
		}
	}
	return []string{mark, draw.Itoa(r.Revision), replicas, draw.Age(p.s.Now, r.Created), cause, strings.Join(r.Images, ",")}
}

func (p *Pane) revisionRow(r cluster.RevisionRow, cells []string, cols []draw.Column, widths []int, w int, sel bool) string {
	return p.rows.Render(draw.Itoa(r.Revision), strings.Join(cells, "|"), w, sel, func() string {
		line := draw.Row(widths, cols, cells, w)
		switch {
		case sel:
			return p.s.Paints.Selected.On(line)
		case r.Current:
			return p.s.Paints.Accent.On(line)
		case r.Gone:
			return p.s.Paints.Muted.On(line)
		}
		return line
	})
}

func (p *Pane) diffView() string {
	lines := make([]string, 0, p.h)
	title := fmt.Sprintf("current (revision %d) → revision %d pod template", p.s.Rollout.Revision, p.diffRev)
	lines = append(lines, p.s.Paints.Header.On(draw.Fit(title, p.w)))
	if len(p.diff) > 0 {
		// What the signs mean, once, short enough for a narrow pane.
		lines = append(lines, draw.Fit(p.s.Paints.Muted.On("("+cluster.UndoDiffLegend+")"), p.w))
	}
	// The whole change-cause and abort the list's column may have cut.
	for _, r := range p.s.Rollout.History {
		if r.Revision != p.diffRev {
			continue
		}
		for _, note := range []string{prefixed("change-cause: ", r.ChangeCause), r.Aborted} {
			if note == "" {
				continue
			}
			for _, l := range draw.Wrap(note, p.w) {
				lines = append(lines, draw.Fit(p.s.Paints.Muted.On(l), p.w))
			}
		}
	}
	switch {
	case p.diffErr != nil:
		lines = append(lines, draw.Fit(p.s.Paints.Bad.On("cannot diff: "+p.diffErr.Error()), p.w))
	case len(p.diff) == 0:
		lines = append(lines, draw.Fit(p.s.Paints.Muted.On("no differences: this is the current template"), p.w))
	default:
		start, end := p.diffRows.Window(len(p.diff))
		for i := start; i < end; i++ {
			d := p.diff[i]
			text := draw.Fit(string(d.Op)+" "+d.Text, p.w)
			switch d.Op {
			case '+':
				text = p.s.Paints.OK.On(text)
			case '-':
				text = p.s.Paints.Bad.On(text)
			default:
				text = p.s.Paints.Muted.On(text)
			}
			lines = append(lines, text)
		}
	}
	return strings.Join(lines, "\n")
}

func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// noteSelected tells undo which revision the operator picked here: u from
// the History pane starts on it.
func (p *Pane) noteSelected() {
	hist := p.s.Rollout.History
	p.s.SelectedRevision = 0
	if p.rows.Focused && p.rows.Cursor >= 0 && p.rows.Cursor < len(hist) {
		p.s.SelectedRevision = hist[p.rows.Cursor].Revision
	}
}
