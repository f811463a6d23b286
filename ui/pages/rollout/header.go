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
	// The styles by reference: the memo's closures capture them, and a copy
	// they capture (24 KB) is made on the heap on every frame, 0.29 GB of
	// the 5.2 GB a console watching a 30,000-pod rollout allocated.
	s, st := p.s, &p.s.Styles
	var out []string

	// Each line is kept by what it shows (draw.Memo): the counts move, these
	// words mostly do not.
	var rev int64
	paused := false
	if s.HaveRollout {
		rev, paused = s.Rollout.Revision, s.Rollout.Paused
	}
	change := ""
	if s.HaveRollout {
		change = imageChange(s.Rollout, 1<<20)
	}
	out = append(out, p.memo.Line(fmt.Sprint("where|", w, "|", clock, "|", p.contextName(), "|", s.Namespace, "|", s.Deployment, "|", s.HaveRollout, rev, paused, s.ReadOnly, "|", change), func() string {
		var badges, tail []draw.Part
		if s.HaveRollout {
			badges = append(badges, draw.Part{Text: "  " + st.Label.Render("rev") + " " + st.Text.Render(draw.Itoa(rev))})
			if paused {
				badges = append(badges, draw.Part{Text: " " + st.Badge.Render(" PAUSED ")})
			}
		}
		// The image change comes after the badges and gives way before
		// them, cut (keeping the tags) into what they leave.
		if change != "" {
			r := s.Rollout
			tail = append(tail, draw.Part{Text: "  " + change, Drop: dropChange, Min: 22, Cut: func(w int) string {
				return "  " + st.Accent.Render(imageChange(r, w-2))
			}})
		}
		return draw.Parts(p.where(s.Namespace, "deploy", draw.OrDash(s.Deployment), clock, badges, tail), w)
	}))

	if !s.HaveRollout {
		return append(out, draw.Fit(st.Muted.Render(absentLine(s)), w))
	}
	r := s.Rollout

	hold := canaryHold(*st, r.Canary)
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
		return draw.Fit(condition(*st, "Progressing", r.Progressing)+"   "+condition(*st, "Available", r.Available), w)
	}))

	status := p.status()
	out = append(out, strings.Split(p.memo.Line(fmt.Sprint("status|", w, "|", r.Done, r.Failed, "|", status), func() string {
		style, mark := st.Warn.Render, "… "
		switch {
		case r.Done:
			style, mark = st.OK.Render, "✔ "
		case r.Failed:
			style, mark = st.Bad.Render, "✖ "
		}
		return strings.Join(draw.Hanging(style(mark), style, status, w, sentenceLines), "\n")
	}), "\n")...)
	if r.Canary != nil {
		out = append(out, canaryLine(*st, *r.Canary, s.Now, w))
		for _, m := range r.Canary.Metrics {
			out = append(out, draw.MetricLine(*st, m, w))
		}
	}
	out = append(out, blockerLines(*st, r, w)...)

	if r.Strategy != "Recreate" {
		half := (w - 2) / 2
		key := fmt.Sprintf("bars|%d|%v|%v", w, r.Surge, r.Unavailable)
		out = append(out, p.memo.Line(key, func() string {
			return draw.Fit(draw.Bar(*st, "surge", r.Surge, st.SurgeBar.Render, half)+"  "+
				draw.Bar(*st, "unavailable", r.Unavailable, st.UnavailableBar.Render, w-2-half), w)
		}))
	}
	return out
}

// sentenceLines is how many lines kubectl's sentence and the why line wrap
// to before they are cut.
const sentenceLines = 2

// status is kubectl's sentence about the rollout, as the header says it.
func (p *Page) status() string {
	r := p.s.Rollout
	status := statusSentence(p.s.Watch, r)
	if !r.Observed {
		status = "waiting for the deployment controller to observe generation " + draw.Itoa(r.Generation) + " · " + status
	}
	return status
}

// Where is the header line of a page over this one (a StatefulSet's, a
// DaemonSet's, an RC's): the same context and namespace, naming object
// (kind/name) instead of the Deployment, the clock at the end.
func (p *Page) Where(namespace, object string, w int, clock string) string {
	kind, name, _ := strings.Cut(object, "/")
	return draw.Parts(p.where(namespace, kind, name, clock, nil, nil), w)
}

// What the header's first line gives up first when it is narrow: what is
// rolling (the ReplicaSets say it too), then the clock, the context, the
// program's name and the namespace. A clock held or paused is a badge of
// the console's state and goes last. The object's kind and name and the
// badges stay.
const (
	dropHeldClock = iota + 1
	dropNamespace
	dropTitle
	dropContext
	dropClock
	dropChange
)

// where are the parts of the header's first line: where the console is,
// the object shown (kind and name) and its badges, READ-ONLY, what follows
// (tail) and the clock.
func (p *Page) where(namespace, kind, name, clock string, badges, tail []draw.Part) []draw.Part {
	s, st := p.s, p.s.Styles
	parts := []draw.Part{
		{Text: st.AppTitle.Render("rollscope") + " ", Drop: dropTitle},
		{Text: st.Label.Render("ctx") + " " + st.Text.Render(p.contextName()) + "  ", Drop: dropContext},
		{Text: st.Label.Render("ns") + " " + st.Text.Render(draw.OrDash(namespace)) + "  ", Drop: dropNamespace},
		{Text: st.Label.Render(kind) + " " + st.Accent.Render(name)},
	}
	parts = append(parts, badges...)
	if s.ReadOnly {
		parts = append(parts, draw.Part{Text: " " + st.Badge.Render(" READ-ONLY ")})
	}
	parts = append(parts, tail...)
	if clock != "" {
		drop := dropClock
		if s.ClockHeld || s.ClockPaused {
			drop = dropHeldClock
		}
		parts = append(parts, draw.Part{Text: clock, Drop: drop, Right: true})
	}
	return parts
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

// contextName is the context the header names: the cluster in focus, the
// page's own when the screen names none.
func (p *Page) contextName() string {
	if p.s.Context != "" {
		return p.s.Context
	}
	return p.context
}
