package rollout

import (
	"fmt"
	"strings"

	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// Header draws the top of the screen under the watch banner: where we
// are, the strategy, the conditions, kubectl's status sentence and the two
// headroom bars.
func (p *Page) Header(w int, clock string) []string {
	s, st := p.s, p.s.Styles
	var out []string

	// Each line is kept by what it shows (draw.Memo): the counts move, these
	// words mostly do not.
	var rev int64
	paused := false
	if s.HaveRollout {
		rev, paused = s.Rollout.Revision, s.Rollout.Paused
	}
	left := p.memo.Line(fmt.Sprint("where|", p.context, "|", s.Namespace, "|", s.Deployment, "|", s.HaveRollout, rev, paused, s.ReadOnly), func() string {
		left := st.AppTitle.Render("rollscope") + " " + st.Label.Render("ctx") + " " + st.Text.Render(p.context) +
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
	if s.HaveRollout {
		// What room the clock leaves: the change must not push it off.
		room := w - draw.WidthOf(left) - draw.WidthOf(clock) - 3
		if change := imageChange(s.Rollout, room); change != "" && room >= 20 {
			left += "  " + st.Accent.Render(change)
		}
	}
	out = append(out, draw.JoinEnds(left, clock, w))

	if !s.HaveRollout {
		return append(out, draw.Fit(st.Muted.Render(absentLine(s)), w))
	}
	r := s.Rollout

	hold := canaryHold(st, r.Canary)
	out = append(out, p.memo.Line(fmt.Sprint("strategy|", w, "|", r.Strategy, "|", r.Replicas, "|", r.MaxSurge, "|", r.MaxSurgeSpec, "|",
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

	out = append(out, p.memo.Line(fmt.Sprintf("conditions|%d|%q|%q", w, r.Progressing, r.Available), func() string {
		return draw.Fit(condition(st, "Progressing", r.Progressing)+"   "+condition(st, "Available", r.Available), w)
	}))

	status := statusSentence(s.Watch, r)
	if !r.Observed {
		status = "waiting for the deployment controller to observe generation " + draw.Itoa(r.Generation) + " · " + status
	}
	out = append(out, p.memo.Line(fmt.Sprint("status|", w, "|", r.Done, r.Failed, "|", status), func() string {
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
		out = append(out, p.memo.Line(key, func() string {
			return draw.Fit(draw.Bar(st, "surge", r.Surge, st.SurgeBar.Render, half)+"  "+
				draw.Bar(st, "unavailable", r.Unavailable, st.UnavailableBar.Render, w-2-half), w)
		}))
	}
	return out
}

// Where is the header line of a page over this one (a StatefulSet's, a
// DaemonSet's, an RC's): the same context and namespace, naming object
// (kind/name) instead of the Deployment, the clock at the end.
func (p *Page) Where(object string, w int, clock string) string {
	s, st := p.s, p.s.Styles
	kind, name, _ := strings.Cut(object, "/")
	left := st.AppTitle.Render("rollscope") + " " + st.Label.Render("ctx") + " " + st.Text.Render(p.context) +
		"  " + st.Label.Render("ns") + " " + st.Text.Render(draw.OrDash(s.Namespace)) +
		"  " + st.Label.Render(kind) + " " + st.Accent.Render(name)
	if s.ReadOnly {
		left += " " + st.Badge.Render(" READ-ONLY ")
	}
	return draw.JoinEnds(left, clock, w)
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
