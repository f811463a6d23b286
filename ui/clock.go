package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

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

// clockFlow measures how fast the embedded clock really flows. Its speed is
// what the operator set, but a runner with more due than it can do in time
// holds the clock at its next timer (engine/sim's Clock.holdAt) rather than
// skip work: a cluster of tens of thousands of pods at ×10 may advance a
// virtual half second a real second. The header then says so, instead of
// a speed the clock is not keeping.
type clockFlow struct {
	now func() time.Time // real time
	// from, at and speed start the window being measured: its real and
	// virtual times and the speed set then; zero while the clock stands.
	from, at time.Time
	speed    float64
	// rate is the last whole window's virtual seconds a real second, and
	// measured says there is one at the speed set now.
	rate     float64
	measured bool
}

// flowWindow is the real time a rate is measured over: long enough to
// span a refresh or two, short enough to follow the load.
const flowWindow = 2 * time.Second

// observe notes the clock's reading virtual at speed; flowing is false
// while it is paused or held, which ends the measure.
func (f *clockFlow) observe(virtual time.Time, speed float64, flowing bool) {
	real := f.now()
	switch {
	case !flowing:
		*f = clockFlow{now: f.now}
		return
	case speed != f.speed || f.from.IsZero():
		f.from, f.at, f.speed, f.measured = real, virtual, speed, false
		return
	}
	if d := real.Sub(f.from); d >= flowWindow {
		f.rate, f.measured = virtual.Sub(f.at).Seconds()/d.Seconds(), true
		f.from, f.at = real, virtual
	}
}

// behind is the rate the clock flowed at over the last window, when that
// fell well short of speed, the speed set now (a fifth short: less is within
// the noise of when refreshes come). A rate measured at another speed says
// nothing of this one.
func (f *clockFlow) behind(speed float64) (float64, bool) {
	return f.rate, f.measured && f.speed == speed && f.rate < 0.8*speed
}

// observeFlow measures the embedded clock's flow at each refresh. A
// replay's clock is real time × speed, never held, and jumps when sought.
func (m *Model) observeFlow() {
	if m.embedded != nil && m.replay == nil {
		m.flow.observe(m.s.Now, m.s.Speed, !m.s.ClockPaused && !m.s.ClockHeld)
	}
}

// formatRate is a measured speed: whole from 10 up, to a tenth from 1, to a
// hundredth below.
func formatRate(r float64) string {
	switch {
	case r >= 10:
		return draw.Itoa(int64(math.Round(r)))
	case r >= 1:
		return strings.TrimSuffix(strconv.FormatFloat(r, 'f', 1, 64), ".0")
	case r < 0.005:
		return "0"
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// clockText is the embedded cluster's virtual clock and speed, which ends
// the header's first line on every page.
func (m *Model) clockText() string {
	if m.embedded == nil {
		return ""
	}
	st := m.s.Styles
	now := m.s.Now.Format("15:04:05")
	rate, behind := m.flow.behind(m.s.Speed)
	return m.memo.Line(fmt.Sprint("clock|", now, "|", m.s.Speed, m.s.ClockHeld, m.s.ClockPaused, m.replay != nil, behind, rate), func() string {
		speed := "×" + formatSpeed(m.s.Speed)
		switch {
		case m.s.ClockHeld:
			speed = st.Badge.Render(" CLOCK HELD (dialog open) ")
		case m.s.ClockPaused:
			speed = st.Badge.Render(" CLOCK PAUSED ")
		case behind:
			// The speed kept, not the one set (+ and - say that): short,
			// so that it fits where the set speed did.
			speed = st.Warn.Render("×"+formatRate(rate)) + st.Muted.Render(" (busy)")
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
