// Package timeline is the Timeline pane: the rollout's story — scaling
// steps, condition changes, events and what the console sent — oldest
// first, following new entries like tail -f.
package timeline

import (
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
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
}

// New is the pane over s, following new entries.
func New(s *screen.Screen) *Pane { return &Pane{s: s, follow: true} }

var timelineColumns = []draw.Column{
	{Title: "TIME", Width: 8}, {Title: "MESSAGE", Width: 0, Min: 24}, {Title: "KIND", Width: 6}, {Title: "OBJECT", Width: 30},
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h; p.rows.Height = h - 1 }

func (p *Pane) KeyMap() help.KeyMap {
	return keys.Pane{p.s.Keys.Up, p.s.Keys.Down, p.s.Keys.Bottom}
}

func timelineKind(k model.TimelineKind) string {
	switch k {
	case model.TimelineScale:
		return "scale"
	case model.TimelineCondition:
		return "cond"
	case model.TimelineEvent:
		return "event"
	case model.TimelineAction:
		return "action"
	}
	return "?"
}

func (p *Pane) Update(msg tea.Msg) (screen.Pane, tea.Cmd) {
	tl := p.s.Timeline
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
	tl := p.s.Timeline
	return strings.Join(p.rows.Table(p.s.Paints, timelineColumns, p.w, len(tl), "nothing has happened yet", func(i int, widths []int, sel bool) string {
		e := tl[i]
		cells := []string{e.Time.Format("15:04:05"), e.Message, timelineKind(e.Kind), e.Object}
		line := draw.Row(widths, timelineColumns, cells, p.w)
		switch {
		case sel:
			return p.s.Paints.Selected.On(line)
		case e.Warning:
			return p.s.Paints.Warn.On(line)
		case e.Kind == model.TimelineAction:
			return p.s.Paints.Accent.On(line)
		}
		return line
	}), "\n")
}
