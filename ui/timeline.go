package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
)

// timelinePane is the rollout's story: scaling steps, condition changes,
// events and console actions, oldest first. While the cursor is on the last
// entry it follows new ones, like tail -f.
type timelinePane struct {
	s      *screen
	w, h   int
	rows   draw.List
	follow bool
}

func newTimelinePane(s *screen) *timelinePane { return &timelinePane{s: s, follow: true} }

var timelineColumns = []draw.Column{
	{Title: "TIME", Width: 8}, {Title: "MESSAGE", Width: 0, Min: 24}, {Title: "KIND", Width: 6}, {Title: "OBJECT", Width: 30},
}

func (p *timelinePane) SetSize(w, h int) { p.w, p.h = w, h; p.rows.Height = h - 1 }

func (p *timelinePane) KeyMap() help.KeyMap {
	return keys.Pane{p.s.keys.Up, p.s.keys.Down, p.s.keys.Bottom}
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

func (p *timelinePane) Update(msg tea.Msg) (Pane, tea.Cmd) {
	tl := p.s.timeline
	keyAt := func(i int) string { return draw.Itoa(i) }
	if f, ok := msg.(focusMsg); ok {
		p.rows.Focused = bool(f)
		return p, nil
	}
	if _, ok := msg.(refreshedMsg); ok {
		if p.follow {
			p.rows.Cursor = len(tl) - 1
		}
		p.rows.Clamp(len(tl))
		return p, nil
	}
	if p.rows.Move(msg, p.s.keys, len(tl), keyAt) {
		p.follow = p.rows.Cursor == len(tl)-1
	}
	return p, nil
}

func (p *timelinePane) View() string {
	if p.h <= 0 {
		return ""
	}
	tl := p.s.timeline
	widths := draw.Columns(timelineColumns, p.w)
	lines := make([]string, 0, p.h)
	lines = append(lines, p.s.paints.Header.On(draw.HeaderRow(widths, timelineColumns, p.w)))
	if len(tl) == 0 {
		lines = append(lines, draw.Fit(p.s.paints.Muted.On("nothing has happened yet"), p.w))
		return strings.Join(lines, "\n")
	}
	start, end := p.rows.Window(len(tl))
	for i := start; i < end; i++ {
		e := tl[i]
		sel := p.rows.Highlighted(i)
		cells := []string{e.Time.Format("15:04:05"), e.Message, timelineKind(e.Kind), e.Object}
		line := draw.Row(widths, timelineColumns, cells, p.w)
		switch {
		case sel:
			line = p.s.paints.Selected.On(line)
		case e.Warning:
			line = p.s.paints.Warn.On(line)
		case e.Kind == model.TimelineAction:
			line = p.s.paints.Accent.On(line)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
