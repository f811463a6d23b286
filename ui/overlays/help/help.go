// Package help is the `?` overlay, generated from the key map: every key in
// its group, the disabled ones with the reason, and the pod glyph legend,
// in as many columns as the width allows.
package help

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Help is the overlay.
type Help struct {
	s     *screen.Screen
	w, h  int
	frame screen.Frame
	// still is set over a page that nothing moves on (the RC view): the
	// Move keys are then not listed, as they would do nothing there.
	still bool
	// Refused, when set, is why the page's state refuses an action key
	// now (a Rollout's promote once it is aborted): greyed like a key
	// disabled for the whole console, with that reason.
	Refused func(name string) string
}

// New opens the overlay at its top.
func New(s *screen.Screen) *Help { return &Help{s: s} }

// NewOver opens the overlay over a page; moves says whether the page has a
// list or a cursor for the Move keys to move.
func NewOver(s *screen.Screen, moves bool) *Help { return &Help{s: s, still: !moves} }

// MoveGroup is the title of the keys that move a page's cursor.
const MoveGroup = "Move"

// SetSize sizes the overlay to the body.
func (o *Help) SetSize(w, h int) { o.w, o.h = w, h; o.frame.SetSize(w, h) }

// KeyMap is the overlay's keys, for the footer.
func (o *Help) KeyMap() help.KeyMap { return o.frame.KeyMap(o.keys()) }

func (o *Help) keys() help.KeyMap { return keys.Pane{o.s.Keys.Back} }

// Update scrolls with ↑/↓, page up/down, home/end and the mouse wheel; ?
// and esc close it. Nothing is typed here, so q quits as it does over the
// panes.
func (o *Help) Update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	k := o.s.Keys
	if o.frame.Move(msg, k, false, len(o.text())) {
		return o, nil
	}
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(msg, k.Quit):
			return o, tea.Quit
		case key.Matches(msg, k.Help), key.Matches(msg, k.Back):
			return nil, nil
		}
	}
	return o, nil
}

// View is the part of the text the frame shows, with the keys under it.
func (o *Help) View() string { return o.frame.Draw(o.s, o.text(), o.keys(), o.w, o.h) }

// text lays the groups out in as many columns as the width allows.
func (o *Help) text() []string {
	st := o.s.Styles
	km := o.s.Keys
	const colW = 52
	var blocks [][]string
	for _, g := range km.Groups() {
		if o.still && g.Title == MoveGroup {
			continue
		}
		block := []string{st.Accent.Render(g.Title)}
		for i, b := range g.Bindings {
			line := draw.Fit(st.HelpKey.Render(b.Help().Key), 12) + st.HelpDesc.Render(b.Help().Desc)
			reason := km.DisabledReason(g.Names[i])
			if reason == "" && o.Refused != nil {
				reason = o.Refused(g.Names[i])
			}
			if reason != "" {
				line = draw.Fit(b.Help().Key, 12) + b.Help().Desc + " — " + reason
				line = st.HelpOff.Render(line)
			}
			block = append(block, line)
		}
		blocks = append(blocks, append(block, ""))
	}
	legend := []string{st.Accent.Render("Pods")}
	for s := range draw.PodGlyphs {
		legend = append(legend, "  "+o.s.Paints.Pod[s].On(draw.PodGlyphs[s])+"  "+draw.PodStateNames[s])
	}
	blocks = append(blocks, legend)

	cols := max(min(o.w/colW, len(blocks)), 1)
	columns := make([][]string, cols)
	for _, b := range blocks {
		shortest := 0
		for c := range columns {
			if len(columns[c]) < len(columns[shortest]) {
				shortest = c
			}
		}
		columns[shortest] = append(columns[shortest], b...)
	}
	height := 0
	for _, c := range columns {
		height = max(height, len(c))
	}
	cw := o.w / cols
	out := make([]string, 0, height+1)
	out = append(out, st.AppTitle.Render(" keys")+st.Muted.Render("  (esc or ? to close, ↑/↓ to scroll)"))
	for i := 0; i < height; i++ {
		var b strings.Builder
		for c := range columns {
			cell := ""
			if i < len(columns[c]) {
				cell = columns[c][i]
			}
			b.WriteString(draw.Fit(" "+cell, cw))
		}
		out = append(out, b.String())
	}
	return out
}
