package ui

import (
	"fmt"
	"strings"

	"rollscope/model"
)

// headerLines draws the top of the screen: where we are, the strategy, the
// conditions, kubectl's status sentence and the two headroom bars.
func (m *Model) headerLines(w int) []string {
	s, st := m.s, m.s.styles
	var out []string

	if banner := watchBanner(m.s.watch, m.s.now); banner != "" {
		out = append(out, st.Banner.Render(fit(" "+banner, w)))
	}

	left := st.AppTitle.Render("rollscope") + " " + st.Label.Render("ctx") + " " + st.Text.Render(m.context) +
		"  " + st.Label.Render("ns") + " " + st.Text.Render(orDash(s.namespace)) +
		"  " + st.Label.Render("deploy") + " " + st.Accent.Render(orDash(s.deployment))
	if s.haveRollout {
		left += "  " + st.Label.Render("rev") + " " + st.Text.Render(itoa(s.rollout.Revision))
		if s.rollout.Paused {
			left += " " + st.Badge.Render(" PAUSED ")
		}
	}
	if s.readOnly {
		left += " " + st.Badge.Render(" READ-ONLY ")
	}
	out = append(out, joinEnds(left, m.clockText(), w))

	if !s.haveRollout {
		msg := "no deployment selected — press : to pick one, or :rc NAME for a ReplicationController"
		if s.deployment != "" {
			msg = fmt.Sprintf("deployment %s/%s not found (yet) — press : to pick another", s.namespace, s.deployment)
		}
		return append(out, fit(st.Muted.Render(msg), w))
	}
	r := s.rollout

	strategy := st.Text.Render(r.Strategy) + "  " + st.Label.Render("replicas") + " " + st.Text.Render(itoa(r.Replicas))
	if r.Strategy != "Recreate" {
		strategy += "  " + st.Label.Render("maxSurge") + " " + st.Text.Render(resolved(r.MaxSurge, r.MaxSurgeSpec)) +
			"  " + st.Label.Render("maxUnavailable") + " " + st.Text.Render(resolved(r.MaxUnavailable, r.MaxUnavailableSpec))
	}
	strategy += "  " + st.Label.Render("minReady") + " " + st.Text.Render(itoa(r.MinReadySeconds)+"s")
	if r.ProgressDeadlineSeconds > 0 {
		strategy += "  " + st.Label.Render("deadline") + " " + st.Text.Render(itoa(r.ProgressDeadlineSeconds)+"s")
	}
	out = append(out, fit(strategy, w))

	out = append(out, fit(m.condition("Progressing", r.Progressing)+"   "+m.condition("Available", r.Available), w))

	status := r.Status
	if !r.Observed {
		status = "waiting for the deployment controller to observe generation " + itoa(r.Generation) + " · " + status
	}
	if r.Done {
		out = append(out, fit(st.OK.Render("✔ "+status), w))
	} else {
		out = append(out, fit(st.Warn.Render("… "+status), w))
	}

	if r.Strategy != "Recreate" {
		half := (w - 2) / 2
		out = append(out, fit(m.bar("surge", r.Surge, st.SurgeBar.Render, half)+"  "+
			m.bar("unavailable", r.Unavailable, st.UnavailableBar.Render, w-2-half), w))
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// resolved shows a budget as the number the controller uses and, when it
// differs, what the user wrote: "3 (25%)".
func resolved(n int32, spec string) string {
	if spec == "" || spec == itoa(n) {
		return itoa(n)
	}
	return itoa(n) + " (" + spec + ")"
}

func (m *Model) condition(name string, c model.Condition) string {
	st := m.s.styles
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

// bar draws one headroom budget: label, a bar of Used against Limit, the
// numbers, and "exhausted" once a rollout cannot take another step on it.
func (m *Model) bar(label string, h model.Headroom, fill func(...string) string, w int) string {
	st := m.s.styles
	nums := fmt.Sprintf(" %d/%d", h.Used, h.Limit)
	exhausted := h.Exhausted()
	suffix := ""
	if exhausted {
		suffix = " full"
	}
	barW := w - len(label) - 1 - len(nums) - len(suffix)
	if barW < 4 {
		return fit(st.Label.Render(label)+nums+suffix, w)
	}
	filled := barW
	if h.Limit > 0 && h.Used < h.Limit {
		filled = int(int64(barW) * int64(max(h.Used, 0)) / int64(h.Limit))
	}
	bar := strings.Repeat("█", filled)
	free := strings.Repeat("░", barW-filled)
	if exhausted {
		bar = st.BarExhausted.Render(bar)
		nums = st.BarExhausted.Render(nums + suffix)
	} else {
		bar = fill(bar)
		nums = st.Text.Render(nums)
	}
	return fit(st.Label.Render(label)+" "+bar+st.BarFree.Render(free)+nums, w)
}

// clockText is the embedded cluster's virtual clock and speed.
func (m *Model) clockText() string {
	if m.embedded == nil {
		return ""
	}
	st := m.s.styles
	speed := "×" + formatSpeed(m.s.speed)
	if m.s.clockPaused {
		speed = st.Badge.Render(" CLOCK PAUSED ")
	}
	return st.Label.Render("clock") + " " + st.Text.Render(m.s.now.Format("15:04:05")) + " " + speed
}

func formatSpeed(f float64) string {
	if f >= 1 && f == float64(int64(f)) {
		return itoa(int64(f))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}

// joinEnds puts right against the right edge when both fit, else drops what
// does not fit of left.
func joinEnds(left, right string, w int) string {
	if right == "" {
		return fit(left, w)
	}
	rw := widthOf(right)
	if rw >= w {
		return fit(right, w)
	}
	return fit(left, w-rw-1) + " " + right
}
