// Package timeline is the Timeline pane: the rollout's story — scaling
// steps, condition changes, events and what the console sent — oldest
// first, following new entries like tail -f.
package timeline

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Pane is the Timeline pane. While the cursor is on the last entry it
// follows new ones.
type Pane struct {
	s      *screen.Screen
	w, h   int
	rows   draw.List
	follow bool
	filter filter
	told   told
	// detail shows the selected entry whole under the list (enter).
	detail bool
}

// New is the pane over s, following new entries.
func New(s *screen.Screen) *Pane { return &Pane{s: s, follow: true} }

// timelineColumns give the message the room: it asks for 48 cells, and
// to make them KIND goes first and OBJECT narrows (cut in the middle, as
// names are) before the message is squeezed.
var timelineColumns = []draw.Column{
	{Title: "TIME", Width: 8}, {Title: "MESSAGE", Width: 0, Min: 48}, {Title: "KIND", Width: 6, Drop: 1},
	{Title: "OBJECT", Width: 30, Min: 16, Cut: draw.CutMiddle},
}

// detailLines is how many lines the whole entry gets under the list.
const detailLines = 4

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h; p.rows.Height = p.listHeight() }

func (p *Pane) listHeight() int {
	if p.detail {
		return max(p.h-1-detailLines, 1)
	}
	return p.h - 1
}

func (p *Pane) KeyMap() help.KeyMap {
	line, what := p.s.Keys.Select, "whole line"
	if p.detail {
		line, what = p.s.Keys.Back, "close line"
	}
	line.SetHelp(line.Help().Key, what)
	return keys.Pane{p.s.Keys.Up, p.s.Keys.Down, p.s.Keys.Bottom, line, p.s.Keys.TimelineFilter}
}

// Opened reports whether a line is shown whole (screen.Opener): esc
// closes it rather than leaving the rollout.
func (p *Pane) Opened() bool { return p.detail }

// setDetail shows the selected line whole, or stops.
func (p *Pane) setDetail(on bool, entries int) {
	p.detail = on
	p.rows.Height = p.listHeight()
	p.rows.Clamp(entries)
}

func timelineKind(k cluster.TimelineKind) string {
	switch k {
	case cluster.TimelineScale:
		return "scale"
	case cluster.TimelineCondition:
		return "cond"
	case cluster.TimelineEvent:
		return "event"
	case cluster.TimelineAction:
		return "action"
	}
	return "?"
}

func (p *Pane) Update(msg tea.Msg) (screen.Pane, tea.Cmd) {
	tl := p.story()
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, p.s.Keys.Select):
			p.setDetail(!p.detail, len(tl))
			return p, nil
		case p.detail && key.Matches(k, p.s.Keys.Back):
			p.setDetail(false, len(tl))
			return p, nil
		case key.Matches(k, p.s.Keys.TimelineFilter):
			p.filter = (p.filter + 1) % filterCount
			p.follow = true
			p.rows.Cursor = len(p.story()) - 1
			p.s.Toast = "timeline: " + p.filter.String()
			return p, nil
		}
	}
	keyAt := func(i int) string { return draw.Itoa(i) }
	if f, ok := msg.(screen.Focus); ok {
		p.rows.Focused = bool(f)
		return p, nil
	}
	if _, ok := msg.(screen.Refreshed); ok {
		if p.follow {
			p.rows.Cursor = len(tl) - 1
		}
		p.rows.Clamp(len(tl))
		return p, nil
	}
	if p.rows.Move(msg, p.s.Keys, len(tl), keyAt) {
		p.follow = p.rows.Cursor == len(tl)-1
	}
	return p, nil
}

func (p *Pane) View() string {
	if p.h <= 0 {
		return ""
	}
	tl := p.story()
	empty := "nothing has happened yet"
	if p.filter != showAll {
		empty = "no " + p.filter.String() + " yet — f shows more"
	}
	list := p.rows.Table(p.s.Paints, timelineColumns, p.w, len(tl), empty, func(i int, widths []int, w int, sel bool) string {
		e := tl[i]
		object := e.Object
		if i > 0 && tl[i-1].Object == object {
			object = "〃" // as above: the column no longer repeats itself
		}
		cells := []string{e.Time.Format("15:04:05"), message(e), timelineKind(e.Kind), object}
		paint := "-"
		switch {
		case sel:
			paint = "s"
		case e.Warning:
			paint = "w"
		case e.Kind == cluster.TimelineAction:
			paint = "a"
		}
		// Kept by what the row shows: the same entries come back every
		// frame while the story grows at its end.
		return p.rows.Render(paint+strings.Join(cells, "\x1f"), "", w, sel, func() string {
			line := draw.Row(widths, timelineColumns, cells, w)
			switch paint {
			case "s":
				return p.s.Paints.Selected.On(line)
			case "w":
				return p.s.Paints.Warn.On(line)
			case "a":
				return p.s.Paints.Accent.On(line)
			}
			return line
		})
	})
	if p.detail && p.rows.Cursor >= 0 && p.rows.Cursor < len(tl) {
		e := tl[p.rows.Cursor]
		whole := draw.Wrap(e.Time.Format("15:04:05")+" "+timelineKind(e.Kind)+" "+e.Object+": "+e.Message, p.w)
		list = append(list[:min(len(list), p.listHeight()+1)], p.s.Paints.Muted.On(draw.Fit(strings.Repeat("─", p.w), p.w)))
		for i := 0; i < detailLines-1; i++ {
			l := ""
			if i < len(whole) {
				l = whole[i]
			}
			list = append(list, draw.Fit(l, p.w))
		}
	}
	return strings.Join(list, "\n")
}
