// Package replicasets is the ReplicaSets pane: the rollout's ReplicaSets,
// newest first, each followed by a grid of one glyph per pod.
package replicasets

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/panes/pods"
	"rollscope/ui/screen"
)

// Pane is the ReplicaSets pane.
type Pane struct {
	s      *screen.Screen
	w, h   int
	cursor int
	offset int // in lines, not ReplicaSets: glyph lines scroll too
	rows   draw.List
	// pinned is set once the operator moved off the newest ReplicaSet:
	// until then the selection (and the Pods pane) follows the newest,
	// so a new rollout's pods are what is shown.
	pinned bool
	// glyph is the pod under the glyph cursor, "" when the cursor is on
	// the ReplicaSet's row (glyph.go); at is its place in the grid, kept
	// for when that pod goes.
	glyph, glyphRS string
	at             int
}

// New is the pane over s; it records the ReplicaSet under its cursor in
// s.SelectedRS.
func New(s *screen.Screen) *Pane { return &Pane{s: s} }

// rsColumns: narrow, AGE goes first, then HASH, CUR and IMAGES; the
// revision, role and the desired, ready and available counts stay.
var rsColumns = []draw.Column{
	{Title: "", Width: 1}, {Title: "REV", Width: 4, Right: true}, {Title: "ROLE", Width: 6},
	{Title: "HASH", Width: 10, Drop: 3}, {Title: "DESIRED", Width: 7, Right: true}, {Title: "CUR", Width: 4, Right: true, Drop: 2},
	{Title: "READY", Width: 5, Right: true}, {Title: "AVAIL", Width: 5, Right: true},
	{Title: "AGE", Width: 4, Right: true, Drop: 4}, {Title: "IMAGES", Width: 0, Min: 12, Cut: draw.CutImages, Drop: 1},
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }

func (p *Pane) KeyMap() help.KeyMap {
	if p.glyph != "" {
		return glyphHelp
	}
	return keys.Pane{p.s.Keys.Up, p.s.Keys.Down, toGlyphs}
}

func (p *Pane) Update(msg tea.Msg) (screen.Pane, tea.Cmd) {
	rss := p.s.Rollout.ReplicaSets
	keyAt := func(i int) string { return rss[i].Name }
	switch msg := msg.(type) {
	case screen.Focus:
		p.rows.Focused = bool(msg)
		return p, nil
	case screen.Refreshed:
		p.rows.Selected = p.s.SelectedRS
		if !p.pinned && len(rss) > 0 {
			p.rows.Selected = rss[0].Name // newest revision first
		}
		p.rows.Cursor = p.cursor
		p.rows.Height = len(rss) // the ReplicaSets always fit as a list
		p.rows.Follow(len(rss), keyAt)
	default:
		if p.glyph != "" {
			if cmd, ok := p.glyphKey(msg); ok {
				return p, cmd
			}
		}
		p.rows.Height = len(rss)
		if !p.rows.Move(msg, p.s.Keys, len(rss), keyAt) {
			if p.enterGlyphs(msg) {
				return p, nil
			}
			return p, p.logs(msg)
		}
		p.pinned = p.rows.Cursor != 0
	}
	p.cursor = p.rows.Cursor
	p.s.SelectedRS = p.rows.Selected
	p.followGlyph()
	return p, nil
}

func (p *Pane) gridWidth() int { return max(p.w-2, 1) }

func (p *Pane) glyphLines(rs cluster.ReplicaSetRow) int {
	gw := p.gridWidth()
	n := (len(rs.Pods) + gw - 1) / gw
	if p.glyph != "" && rs.Name == p.glyphRS {
		n++ // the line that names the pod under the glyph cursor
	}
	return n
}

func (p *Pane) View() string {
	if p.h <= 0 {
		return ""
	}
	lines := make([]string, 0, p.h)
	rss := p.s.Rollout.ReplicaSets
	cells := make([][]string, len(rss))
	for i, rs := range rss {
		cells[i] = p.rsCells(rs, i == p.cursor)
	}
	cols := draw.Numbers(rsColumns, cells)
	widths := draw.Columns(cols, p.w)
	p.rows.Lay(widths)
	lines = append(lines, p.s.Paints.Header.On(draw.HeaderRow(widths, cols, p.w)))
	if len(rss) == 0 {
		lines = append(lines, draw.Fit(p.s.Paints.Muted.On("no ReplicaSets yet"), p.w))
		return strings.Join(lines, "\n")
	}
	body := p.h - 1
	shown, fits := p.gridHeights(rss, body)
	if fits {
		p.offset = 0 // nothing to scroll, whatever the glyph cursor scrolled before
	}

	// Keep the selected ReplicaSet's row, and as much of its grid as fits,
	// in view.
	start := 0
	for i := 0; i < p.cursor && i < len(rss); i++ {
		start += 1 + shown[i]
	}
	if p.cursor < len(rss) {
		end := start + 1 + shown[p.cursor]
		if start < p.offset {
			p.offset = start
		} else if end > p.offset+body {
			p.offset = min(start, end-body)
		}
	}

	line := 0
	for i, rs := range rss {
		if len(lines) > body {
			break
		}
		if line >= p.offset {
			lines = append(lines, p.rsRow(rs, cells[i], cols, widths, i == p.cursor && p.rows.Focused))
		}
		line++
		n := shown[i]
		if line+n <= p.offset {
			line += n
			continue
		}
		picking := p.glyph != "" && rs.Name == p.glyphRS
		for j := 0; j < n && len(lines) <= body; j++ {
			if line >= p.offset {
				switch {
				case picking:
					lines = append(lines, p.pickLine(rs, j))
				case j == n-1 && n < p.glyphLines(rs):
					lines = append(lines, p.moreLine(len(rs.Pods)-j*p.gridWidth()))
				default:
					lines = append(lines, p.gridLine(rs, j))
				}
			}
			line++
		}
	}
	return strings.Join(lines, "\n")
}

// gridHeights are the lines each ReplicaSet's grid takes in a body of
// that many lines. When every row and its whole grid fit, or the glyph
// cursor is in a grid (it scrolls), each grid is whole. Otherwise the
// lines left under the rows are shared out a line at a time, so that a
// 100,000-pod grid does not push the other ReplicaSets' rows — the old
// one a rollout is replacing — out of the pane: a grid cut short ends
// with a line counting the pods it does not show. fits says the rows and
// grids as given fit in the body, with nothing to scroll.
func (p *Pane) gridHeights(rss []cluster.ReplicaSetRow, body int) (heights []int, fits bool) {
	full := make([]int, len(rss))
	total := len(rss)
	for i, rs := range rss {
		full[i] = p.glyphLines(rs)
		total += full[i]
	}
	if total <= body || p.glyph != "" {
		return full, total <= body
	}
	heights = make([]int, len(rss))
	for left := body - len(rss); left > 0; {
		gave := false
		for i := range heights {
			if left > 0 && heights[i] < full[i] {
				heights[i]++
				left--
				gave = true
			}
		}
		if !gave {
			break
		}
	}
	return heights, len(rss) <= body
}

// moreLine stands for the last line of a grid cut short: the pods it does
// not show.
func (p *Pane) moreLine(more int) string {
	return draw.Fit(p.s.Paints.Muted.On("  … "+model.Plural(more, "more pod")+" (→ walks them all)"), p.w)
}

func roleName(r cluster.ReplicaSetRole) string {
	switch r {
	case cluster.RoleNew:
		return "new"
	case cluster.RoleStable:
		return "stable"
	default:
		return "old"
	}
}

// rsCells are a ReplicaSet row's cells. The cursor row is marked
// (draw.Marker) even when the pane is not focused, because it chooses the
// pods the pods pane lists.
func (p *Pane) rsCells(rs cluster.ReplicaSetRow, cursor bool) []string {
	mark := " "
	if cursor {
		mark = draw.Marker
	}
	return []string{mark, draw.Itoa(rs.Revision), roleName(rs.Role), rs.Hash, draw.Itoa(rs.Desired),
		draw.Itoa(rs.Current), draw.Itoa(rs.Ready), draw.Itoa(rs.Available), draw.Age(p.s.Now, rs.Created),
		strings.Join(rs.Images, ",")}
}

func (p *Pane) rsRow(rs cluster.ReplicaSetRow, cells []string, cols []draw.Column, widths []int, sel bool) string {
	return p.rows.Render("rs/"+rs.Name, strings.Join(cells, "|"), p.w, sel, func() string {
		line := draw.Row(widths, cols, cells, p.w)
		if sel {
			return p.s.Paints.Selected.On(line)
		}
		switch rs.Role {
		case cluster.RoleNew:
			return p.s.Paints.RoleNew.On(line)
		case cluster.RoleStable:
			return p.s.Paints.RoleStable.On(line)
		default:
			return p.s.Paints.RoleOld.On(line)
		}
	})
}

// gridLine draws line j of a ReplicaSet's pod grid, colouring runs of one
// state with one escape sequence.
func (p *Pane) gridLine(rs cluster.ReplicaSetRow, j int) string {
	gw := p.gridWidth()
	pods := rs.Pods[j*gw : min((j+1)*gw, len(rs.Pods))]
	sig := make([]byte, len(pods))
	for i, pod := range pods {
		sig[i] = byte('0' + draw.StateIndex(pod.State))
	}
	return p.rows.Render("grid/"+rs.Name+"/"+draw.Itoa(j), string(sig), p.w, false, func() string {
		var b strings.Builder
		b.WriteString("  ")
		for i := 0; i < len(pods); {
			st := draw.StateIndex(pods[i].State)
			k := i
			var run strings.Builder
			for k < len(pods) && draw.StateIndex(pods[k].State) == st {
				run.WriteString(draw.PodGlyphs[st])
				k++
			}
			b.WriteString(p.s.Paints.Pod[st].On(run.String()))
			i = k
		}
		return draw.Fit(b.String(), p.w)
	})
}

// logs opens the logs of the newest pod of the ReplicaSet under the cursor
// on l: the pod a rollout's trouble shows first.
func (p *Pane) logs(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok || !key.Matches(press, p.s.Keys.Action(action.Logs)) {
		return nil
	}
	rs, ok := p.s.ReplicaSet()
	if !ok || len(rs.Pods) == 0 {
		p.s.Toast = "logs: the ReplicaSet has no pods"
		return nil
	}
	newest := rs.Pods[0]
	for _, pod := range rs.Pods[1:] {
		if pod.Created.After(newest.Created) || pod.Created.Equal(newest.Created) && pod.Name > newest.Name {
			newest = pod
		}
	}
	return pods.OpenLogs(p.s, p.s.Namespace, newest.Name)
}
