package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/ui/draw"
)

// clockKey steers the embedded clock on +, - and space, the same from
// every page: + and - multiply its speed, within bounds, and space pauses
// or restarts it.
func (m *Model) clockKey(msg tea.KeyPressMsg) {
	k := m.s.Keys
	switch {
	case key.Matches(msg, k.Faster, k.Slower):
		factor := 2.0
		if key.Matches(msg, k.Slower) {
			factor = 0.5
		}
		sp := min(max(m.embedded.Speed()*factor, minSpeed), maxSpeed)
		m.embedded.SetSpeed(sp)
		m.readClock()
		m.s.Toast = "clock speed ×" + formatSpeed(sp)
	case key.Matches(msg, k.PauseClock):
		m.embedded.SetPaused(!m.embedded.Paused())
		m.readClock()
	case key.Matches(msg, k.PrevChange, k.NextChange):
		m.replay.Step(key.Matches(msg, k.NextChange))
		m.readClock()
	}
}

// seekClock jumps a replay to a clock time (`:at 03:12:00`).
func (m *Model) seekClock(at string) {
	switch {
	case m.replay == nil:
		m.s.Toast = ":at jumps a replay to a clock time: rollscope replay FILE"
	case at == "":
		m.s.Toast = "give the clock time: :at 03:12:00"
	default:
		if err := m.replay.SeekClock(at); err != nil {
			m.s.Toast = err.Error()
			return
		}
		m.readClock()
		m.s.Toast = "replay at " + at
	}
}

// readClock notes the embedded clock's speed for the header, so View does
// not call out to the clock.
func (m *Model) readClock() {
	if m.embedded != nil {
		m.s.Speed, m.s.ClockPaused = m.embedded.Speed(), m.embedded.Paused()
	}
}

// clockText is the embedded cluster's virtual clock and speed, which ends
// the header's first line on every page.
func (m *Model) clockText() string {
	if m.embedded == nil {
		return ""
	}
	st := m.s.Styles
	now := m.s.Now.Format("15:04:05")
	return m.memo.Line(fmt.Sprint("clock|", now, "|", m.s.Speed, m.s.ClockHeld, m.s.ClockPaused, m.replay != nil), func() string {
		speed := "×" + formatSpeed(m.s.Speed)
		switch {
		case m.s.ClockHeld:
			speed = st.Badge.Render(" CLOCK HELD (dialog open) ")
		case m.s.ClockPaused:
			speed = st.Badge.Render(" CLOCK PAUSED ")
		}
		label := st.Label.Render("clock")
		switch {
		case m.replay != nil:
			label = st.Badge.Render(" REPLAY ")
		case !m.forkedAt.IsZero():
			label = st.Badge.Render(" REHEARSAL forked at " + m.forkedAt.Format("15:04:05") + " ")
		}
		return label + " " + st.Text.Render(now) + " " + speed
	})
}

func formatSpeed(f float64) string {
	if f >= 1 && f == float64(int64(f)) {
		return draw.Itoa(int64(f))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}
