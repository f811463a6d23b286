package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
)

// replicaSetsPane lists the rollout's ReplicaSets, newest first, each
// followed by a grid of one glyph per pod.
type replicaSetsPane struct {
	s      *screen
	w, h   int
	cursor int
	offset int // in lines, not ReplicaSets: glyph lines scroll too
	rows   draw.List
}

func newReplicaSetsPane(s *screen) *replicaSetsPane { return &replicaSetsPane{s: s} }

var rsColumns = []draw.Column{
	{Title: "", Width: 1}, {Title: "REV", Width: 4, Right: true}, {Title: "ROLE", Width: 6},
	{Title: "HASH", Width: 10}, {Title: "DESIRED", Width: 7, Right: true}, {Title: "CUR", Width: 4, Right: true},
	{Title: "READY", Width: 5, Right: true}, {Title: "AVAIL", Width: 5, Right: true},
	{Title: "AGE", Width: 4, Right: true}, {Title: "IMAGES", Width: 0, Min: 12},
}

func (p *replicaSetsPane) SetSize(w, h int) { p.w, p.h = w, h }

func (p *replicaSetsPane) KeyMap() help.KeyMap {
	return keys.Pane{p.s.keys.Up, p.s.keys.Down}
}

func (p *replicaSetsPane) Update(msg tea.Msg) (Pane, tea.Cmd) {
	rss := p.s.rollout.ReplicaSets
	keyAt := func(i int) string { return rss[i].Name }
	switch msg := msg.(type) {
	case focusMsg:
		p.rows.Focused = bool(msg)
		return p, nil
	case refreshedMsg:
		p.rows.Selected = p.s.selectedRS
		p.rows.Cursor = p.cursor
		p.rows.Height = len(rss) // the ReplicaSets always fit as a list
		p.rows.Follow(len(rss), keyAt)
	default:
		p.rows.Height = len(rss)
		if !p.rows.Move(msg, p.s.keys, len(rss), keyAt) {
			return p, nil
		}
	}
	p.cursor = p.rows.Cursor
	p.s.selectedRS = p.rows.Selected
	return p, nil
}

func (p *replicaSetsPane) gridWidth() int { return max(p.w-2, 1) }

func (p *replicaSetsPane) glyphLines(rs model.ReplicaSetRow) int {
	gw := p.gridWidth()
	return (len(rs.Pods) + gw - 1) / gw
}

func (p *replicaSetsPane) View() string {
	if p.h <= 0 {
		return ""
	}
	lines := make([]string, 0, p.h)
	rss := p.s.rollout.ReplicaSets
	widths := draw.Columns(rsColumns, p.w)
	lines = append(lines, p.s.paints.Header.On(draw.HeaderRow(widths, rsColumns, p.w)))
	if len(rss) == 0 {
		lines = append(lines, draw.Fit(p.s.paints.Muted.On("no ReplicaSets yet"), p.w))
		return strings.Join(lines, "\n")
	}
	body := p.h - 1

	// Keep the selected ReplicaSet's row, and as much of its grid as fits,
	// in view.
	start := 0
	for i := 0; i < p.cursor && i < len(rss); i++ {
		start += 1 + p.glyphLines(rss[i])
	}
	if p.cursor < len(rss) {
		end := start + 1 + p.glyphLines(rss[p.cursor])
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
			lines = append(lines, p.rsRow(rs, widths, i == p.cursor, i == p.cursor && p.rows.Focused))
		}
		line++
		n := p.glyphLines(rs)
		if line+n <= p.offset {
			line += n
			continue
		}
		for j := 0; j < n && len(lines) <= body; j++ {
			if line >= p.offset {
				lines = append(lines, p.gridLine(rs, j))
			}
			line++
		}
	}
	return strings.Join(lines, "\n")
}

func roleName(r model.ReplicaSetRole) string {
	switch r {
	case model.RoleNew:
		return "new"
	case model.RoleStable:
		return "stable"
	default:
		return "old"
	}
}

// The cursor row is marked ▶ even when the pane is not focused, because
// it chooses the pods the pods pane lists.
func (p *replicaSetsPane) rsRow(rs model.ReplicaSetRow, widths []int, cursor, sel bool) string {
	ageStr := draw.Age(p.s.now, rs.Created)
	images := strings.Join(rs.Images, ",")
	sig := strings.Join([]string{strconv.FormatBool(cursor), roleName(rs.Role), draw.Itoa(rs.Revision), draw.Itoa(rs.Desired), draw.Itoa(rs.Current),
		draw.Itoa(rs.Ready), draw.Itoa(rs.Available), ageStr, images}, "|")
	return p.rows.Render("rs/"+rs.Name, sig, p.w, sel, func() string {
		mark := " "
		if cursor {
			mark = "▶"
		}
		cells := []string{mark, draw.Itoa(rs.Revision), roleName(rs.Role), rs.Hash, draw.Itoa(rs.Desired),
			draw.Itoa(rs.Current), draw.Itoa(rs.Ready), draw.Itoa(rs.Available), ageStr, images}
		line := draw.Row(widths, rsColumns, cells, p.w)
		if sel {
			return p.s.paints.Selected.On(line)
		}
		switch rs.Role {
		case model.RoleNew:
			return p.s.paints.RoleNew.On(line)
		case model.RoleStable:
			return p.s.paints.RoleStable.On(line)
		default:
			return p.s.paints.RoleOld.On(line)
		}
	})
}

// gridLine draws line j of a ReplicaSet's pod grid, colouring runs of one
// state with one escape sequence.
func (p *replicaSetsPane) gridLine(rs model.ReplicaSetRow, j int) string {
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
			b.WriteString(p.s.paints.Pod[st].On(run.String()))
			i = k
		}
		return draw.Fit(b.String(), p.w)
	})
}
