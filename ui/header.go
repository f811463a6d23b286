package ui

import (
	"fmt"
	"strings"

	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// headerLines draws the top of the screen: where we are, the strategy, the
// conditions, kubectl's status sentence and the two headroom bars.
func (m *Model) headerLines(w int) []string {
	s, st := m.s, m.s.Styles
	var out []string

	if banner := watchBanner(m.s.Watch, m.s.Now); banner != "" {
		out = append(out, st.Banner.Render(draw.Fit(" "+banner, w)))
	}
	if m.fleetOpen {
		// The fleet draws its own scope and counts under this line.
		return append(out, m.fleetTitle(w))
	}

	// Each line is kept by what it shows (memo.go): the counts move, these
	// words mostly do not.
	var rev int64
	paused := false
	if s.HaveRollout {
		rev, paused = s.Rollout.Revision, s.Rollout.Paused
	}
	left := m.memo.line(fmt.Sprint("where|", m.context, "|", s.Namespace, "|", s.Deployment, "|", s.HaveRollout, rev, paused, s.ReadOnly), func() string {
		left := st.AppTitle.Render("rollscope") + " " + st.Label.Render("ctx") + " " + st.Text.Render(m.context) +
			"  " + st.Label.Render("ns") + " " + st.Text.Render(draw.OrDash(s.Namespace)) +
			"  " + st.Label.Render("deploy") + " " + st.Accent.Render(draw.OrDash(s.Deployment))
		if s.HaveRollout {
			left += "  " + st.Label.Render("rev") + " " + st.Text.Render(draw.Itoa(rev))
			if paused {
				left += " " + st.Badge.Render(" PAUSED ")
			}
		}
		if s.ReadOnly {
			left += " " + st.Badge.Render(" READ-ONLY ")
		}
		return left
	})
	clock := m.clockText()
	if s.HaveRollout {
		// What room the clock leaves: the change must not push it off.
		room := w - draw.WidthOf(left) - draw.WidthOf(clock) - 3
		if change := imageChange(s.Rollout, room); change != "" && room >= 20 {
			left += "  " + st.Accent.Render(change)
		}
	}
	out = append(out, joinEnds(left, clock, w))

	if !s.HaveRollout {
		return append(out, draw.Fit(st.Muted.Render(absentLine(s)), w))
	}
	r := s.Rollout

	hold := canaryHold(st, r.Canary)
	out = append(out, m.memo.line(fmt.Sprint("strategy|", w, "|", r.Strategy, "|", r.Replicas, "|", r.MaxSurge, "|", r.MaxSurgeSpec, "|",
		r.MaxUnavailable, "|", r.MaxUnavailableSpec, "|", r.MinReadySeconds, "|", r.ProgressDeadlineSeconds, "|", hold), func() string {
		strategy := st.Text.Render(r.Strategy) + "  " + st.Label.Render("replicas") + " " + st.Text.Render(draw.Itoa(r.Replicas))
		if r.Strategy != "Recreate" {
			strategy += "  " + st.Label.Render("maxSurge") + " " + st.Text.Render(resolved(r.MaxSurge, r.MaxSurgeSpec)) +
				"  " + st.Label.Render("maxUnavailable") + " " + st.Text.Render(resolved(r.MaxUnavailable, r.MaxUnavailableSpec))
		}
		strategy += "  " + st.Label.Render("minReady") + " " + st.Text.Render(draw.Itoa(r.MinReadySeconds)+"s")
		if r.ProgressDeadlineSeconds > 0 {
			strategy += "  " + st.Label.Render("deadline") + " " + st.Text.Render(draw.Itoa(r.ProgressDeadlineSeconds)+"s")
		}
		return draw.Fit(strategy+hold, w)
	}))

	out = append(out, m.memo.line(fmt.Sprintf("conditions|%d|%q|%q", w, r.Progressing, r.Available), func() string {
		return draw.Fit(condition(st, "Progressing", r.Progressing)+"   "+condition(st, "Available", r.Available), w)
	}))

	status := statusSentence(s.Watch, r)
	if !r.Observed {
		status = "waiting for the deployment controller to observe generation " + draw.Itoa(r.Generation) + " · " + status
	}
	out = append(out, m.memo.line(fmt.Sprint("status|", w, "|", r.Done, r.Failed, "|", status), func() string {
		switch {
		case r.Done:
			return draw.Fit(st.OK.Render("✔ "+status), w)
		case r.Failed:
			return draw.Fit(st.Bad.Render("✖ "+status), w)
		}
		return draw.Fit(st.Warn.Render("… "+status), w)
	}))
	if r.Canary != nil {
		out = append(out, canaryLine(st, *r.Canary, s.Now, w))
	}
	if line, ok := blockerLine(st, r, w); ok {
		out = append(out, line)
	}

	if r.Strategy != "Recreate" {
		half := (w - 2) / 2
		key := fmt.Sprintf("bars|%d|%v|%v", w, r.Surge, r.Unavailable)
		out = append(out, m.memo.line(key, func() string {
			return draw.Fit(draw.Bar(st, "surge", r.Surge, st.SurgeBar.Render, half)+"  "+
				draw.Bar(st, "unavailable", r.Unavailable, st.UnavailableBar.Render, w-2-half), w)
		}))
	}
	return out
}

// resolved shows a budget as the number the controller uses and, when it
// differs, what the user wrote: "3 (25%)".
func resolved(n int32, spec string) string {
	if spec == "" || spec == draw.Itoa(n) {
		return draw.Itoa(n)
	}
	return draw.Itoa(n) + " (" + spec + ")"
}

// condition is one of the deployment's conditions: its status in colour
// and its reason.
func condition(st themes.Styles, name string, c cluster.Condition) string {
	status := c.Status
	if status == "" {
		return st.Label.Render(name) + " " + st.Muted.Render("-")
	}
	styled := st.Warn.Render(status)
	switch status {
	case "True":
		styled = st.OK.Render(status)
	case "False":
		styled = st.Bad.Render(status)
	}
	out := st.Label.Render(name) + " " + styled
	if c.Reason != "" {
		out += " " + st.Text.Render(c.Reason)
	}
	return out
}

// clockText is the embedded cluster's virtual clock and speed.
func (m *Model) clockText() string {
	if m.embedded == nil {
		return ""
	}
	st := m.s.Styles
	now := m.s.Now.Format("15:04:05")
	return m.memo.line(fmt.Sprint("clock|", now, "|", m.s.Speed, m.s.ClockHeld, m.s.ClockPaused), func() string {
		speed := "×" + formatSpeed(m.s.Speed)
		switch {
		case m.s.ClockHeld:
			speed = st.Badge.Render(" CLOCK HELD (dialog open) ")
		case m.s.ClockPaused:
			speed = st.Badge.Render(" CLOCK PAUSED ")
		}
		return st.Label.Render("clock") + " " + st.Text.Render(now) + " " + speed
	})
}

func formatSpeed(f float64) string {
	if f >= 1 && f == float64(int64(f)) {
		return draw.Itoa(int64(f))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}

// joinEnds puts right against the right edge when both fit, else drops what
// does not fit of left.
func joinEnds(left, right string, w int) string {
	if right == "" {
		return draw.Fit(left, w)
	}
	rw := draw.WidthOf(right)
	if rw >= w {
		return draw.Fit(right, w)
	}
	return draw.Fit(left, w-rw-1) + " " + right
}
