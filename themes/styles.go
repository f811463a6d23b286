package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// PodStates is the number of pod states the glyph grid distinguishes; it
// matches cluster.PodPending … cluster.PodFailed.
const PodStates = 7

// Styles is every style the console renders with. Panes take their look
// from here and never from a colour of their own.
type Styles struct {
	Text, Muted, Label, Accent lipgloss.Style
	OK, Warn, Bad              lipgloss.Style

	AppTitle       lipgloss.Style // "rollscope" in the header
	Badge          lipgloss.Style // PAUSED, EMBEDDED
	Banner         lipgloss.Style // watch not synced / not connected
	PaneTitle      lipgloss.Style
	PaneTitleFocus lipgloss.Style
	Separator      lipgloss.Style // the rule between side-by-side panes
	Selected       lipgloss.Style // the row under the cursor
	TableHeader    lipgloss.Style

	// Headroom bars: the filled part, the free part, and the filled part
	// once the budget is exhausted (the rollout is stalled on it).
	SurgeBar, UnavailableBar, BarFree, BarExhausted lipgloss.Style

	// Pod is indexed by cluster.PodState.
	Pod [PodStates]lipgloss.Style

	RoleNew, RoleOld, RoleStable lipgloss.Style
	DiffAdd, DiffDel, DiffSame   lipgloss.Style
	HelpKey, HelpDesc, HelpOff   lipgloss.Style
}

// colour turns a theme colour into a lipgloss colour; "" is the terminal's
// default (no colour set).
func colour(s string) color.Color {
	if s == "" {
		return nil
	}
	return lipgloss.Color(s)
}

func fg(s string) lipgloss.Style {
	st := lipgloss.NewStyle()
	if c := colour(s); c != nil {
		st = st.Foreground(c)
	}
	return st
}

// Styles builds the console's styles from the theme.
func (t Theme) Styles() Styles {
	s := Styles{
		Text:   fg(t.Text),
		Muted:  fg(t.Muted),
		Label:  fg(t.Muted),
		Accent: fg(t.Accent).Bold(true),
		OK:     fg(t.OK),
		Warn:   fg(t.Warn),
		Bad:    fg(t.Bad).Bold(true),

		AppTitle:       fg(t.Accent).Bold(true),
		Badge:          fg(t.Warn).Bold(true).Reverse(true),
		Banner:         fg(t.Bad).Bold(true).Reverse(true),
		PaneTitle:      fg(t.Muted).Bold(true),
		PaneTitleFocus: fg(t.Accent).Bold(true).Underline(true),
		Separator:      fg(t.Border),
		TableHeader:    fg(t.Muted).Underline(true),

		SurgeBar:       fg(t.Surge),
		UnavailableBar: fg(t.Unavailable),
		BarFree:        fg(t.Border),
		BarExhausted:   fg(t.Bad).Bold(true),

		RoleNew:    fg(t.Accent).Bold(true),
		RoleOld:    fg(t.Muted),
		RoleStable: fg(t.OK),
		DiffAdd:    fg(t.OK),
		DiffDel:    fg(t.Bad),
		DiffSame:   fg(t.Muted),
		HelpKey:    fg(t.Accent).Bold(true),
		HelpDesc:   fg(t.Text),
		HelpOff:    fg(t.Muted).Faint(true),
	}
	sel := lipgloss.NewStyle()
	if t.Plain || (t.Selection == "" && t.SelectionText == "") {
		sel = sel.Reverse(true)
	} else {
		if c := colour(t.Selection); c != nil {
			sel = sel.Background(c)
		}
		if c := colour(t.SelectionText); c != nil {
			sel = sel.Foreground(c)
		}
	}
	s.Selected = sel.Bold(true)

	// Pending, Creating, NotReady, Ready, CrashLoop, Terminating, Failed.
	s.Pod = [PodStates]lipgloss.Style{
		fg(t.Muted), fg(t.Accent), fg(t.Warn), fg(t.OK),
		fg(t.Bad).Bold(true), fg(t.Terminating), fg(t.Failed),
	}
	if t.Plain {
		// Without colour, a stalled budget and a failing pod still have to
		// stand out.
		s.BarExhausted = s.BarExhausted.Reverse(true)
		s.Pod[4] = s.Pod[4].Reverse(true)
	}
	return s
}
