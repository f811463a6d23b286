package workload

import (
	"strings"
	"time"

	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// An Argo Rollout on the page: the title, Argo's status line, the header
// lines of the read model (strategy and step, pause, images, what is not
// shown), then its sections — the headroom bars with Argo's own maxSurge
// and maxUnavailable, the steps, the analysis, its ReplicaSets (stable, canary,
// older) with their pods. A section that does not fit the body gives way
// to its short form, the least urgent first (argoSection).

// ArgoSource is what the view reads of a Rollout; cluster.Cluster answers
// it.
type ArgoSource interface {
	ArgoRollout(namespace, name string, now time.Time) (cluster.ArgoRolloutView, bool)
}

func (v *View) readArgo() {
	src, ok := v.s.Src.(ArgoSource)
	if !ok {
		v.found = false
		return
	}
	v.ro, v.found = src.ArgoRollout(v.namespace, v.name, v.s.Now)
}

// argoSection is a part of the page: its lines, and the fewer it keeps
// when the body is short; gives is the order in which sections give way
// (lowest first).
type argoSection struct {
	full, short []string
	gives       int
}

// fitSections is the sections' lines in their order, each section drawn
// short, the lowest gives first, until they fit room lines (or none is
// left to shorten: the view then cuts what is below); then the room left
// goes back to the most urgent of them that fits whole.
func fitSections(secs []argoSection, room int) []string {
	total := 0
	for _, s := range secs {
		total += len(s.full)
	}
	short := make([]bool, len(secs))
	for total > room {
		best := -1
		for i, s := range secs {
			if !short[i] && len(s.short) < len(s.full) && (best < 0 || s.gives < secs[best].gives) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		short[best] = true
		total -= len(secs[best].full) - len(secs[best].short)
	}
	// What is left goes back to the sections that gave way, the most
	// urgent first, each whole if it fits.
	for {
		best := -1
		for i, s := range secs {
			if short[i] && total+len(s.full)-len(s.short) <= room && (best < 0 || s.gives > secs[best].gives) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		short[best] = false
		total += len(secs[best].full) - len(secs[best].short)
	}
	var out []string
	for i, s := range secs {
		if short[i] {
			out = append(out, s.short...)
		} else {
			out = append(out, s.full...)
		}
	}
	return out
}

// argoRollout draws the Rollout in room lines.
func (v *View) argoRollout(w, room int) []string {
	st, r := v.s.Styles, v.ro
	out := []string{v.title(w, "desired", draw.Itoa(r.Desired), "updated", draw.Itoa(r.Updated), "available", draw.Itoa(r.Available),
		"revision", draw.Itoa(r.Revision), "strategy", r.Strategy)}
	out = append(out, v.statusLines(r.Status, r.Done, w)...)
	for i, l := range r.Header {
		style := st.Text.Render
		if i >= len(r.Header)-len(r.NotShown) {
			style = st.Muted.Render
		}
		out = append(out, draw.Hanging("", style, l, w, 2)...)
	}
	half := (w - 2) / 2
	bars := []string{draw.Fit(draw.Bar(st, r.SurgeLabel, r.Surge, st.SurgeBar.Render, half)+"  "+
		draw.Bar(st, "unavailable", r.Unavailable, st.UnavailableBar.Render, w-2-half), w)}
	secs := []argoSection{{full: bars, short: bars}, v.argoSteps(w), v.argoAnalysis(w), v.argoReplicaSets(w), v.argoHistory(w)}
	return append(out, fitSections(secs, room-len(out))...)
}

// Step markers, read without colour: done, the current step, to come.
const (
	stepDone    = "✓"
	stepCurrent = "▸"
	stepToCome  = " "
)

// argoSteps is a canary's steps list, the current step marked, the done
// ones dimmed; short, the current step and the next.
func (v *View) argoSteps(w int) argoSection {
	st, r := v.s.Styles, v.ro
	if len(r.Steps) == 0 {
		return argoSection{}
	}
	done := 0
	lines := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		mark, style := stepToCome, st.Text.Render
		switch {
		case s.Done:
			mark, style = stepDone, st.Muted.Render
			done++
		case s.Current:
			mark, style = stepCurrent, st.Accent.Render
		case s.NotShown:
			style = st.Muted.Render
		}
		text := s.Text
		if s.Note != "" {
			text += " · " + s.Note
		}
		lines[i] = draw.Fit(style("  "+mark+" "+draw.FitRight(draw.Itoa(i+1), 2)+" "+text), w)
	}
	head := st.Label.Render("steps") + st.Muted.Render("  "+stepDone+" done · "+stepCurrent+" now")
	full := append([]string{draw.Fit(head, w)}, lines...)
	short := []string{draw.Fit(st.Label.Render("steps")+st.Muted.Render("  "+draw.Itoa(done)+" of "+draw.Itoa(len(r.Steps))+" done"), w)}
	if r.Step >= 0 {
		short = append(short, lines[r.Step])
		if r.Step+1 < len(lines) {
			short = append(short, lines[r.Step+1])
		}
	}
	return argoSection{full: full, short: short, gives: 2}
}

// argoRole is what the ReplicaSet of pod-template-hash hash is to the
// Rollout, in Argo's words: "stable", the current template's "canary" (or
// blue/green's "preview") while it is not yet stable, or "old".
func argoRole(r cluster.ArgoRolloutView, hash string) string {
	switch {
	case hash == r.StableHash:
		return "stable"
	case hash == r.CurrentHash && r.Strategy == "blueGreen":
		return "preview"
	case hash == r.CurrentHash:
		return "canary"
	}
	return "old"
}

// argoReplicaSets are the Rollout's ReplicaSets with their roles and pods;
// they never give way.
func (v *View) argoReplicaSets(w int) argoSection {
	st, r := v.s.Styles, v.ro
	out := []string{draw.Fit(st.Label.Render("replica sets"), w)}
	for _, rs := range r.ReplicaSets {
		role := argoRole(r, rs.Hash)
		switch role {
		case "stable":
			role = st.OK.Render(role)
		case "preview", "canary":
			role = st.Warn.Render(role)
		}
		if rs.Hash == r.ActiveHash && r.Strategy == "blueGreen" {
			role += st.Accent.Render(" active")
		}
		var glyphs strings.Builder
		for _, p := range rs.Pods {
			i := draw.StateIndex(p.State)
			glyphs.WriteString(v.s.Paints.Pod[i].On(draw.PodGlyphs[i]))
		}
		line := "  " + draw.Fit(st.Text.Render(rs.Name), 28) + " " + draw.Fit(role, 16) + " rev " + draw.Fit(draw.Itoa(rs.Revision), max(4, draw.DigitsOf(rs.Revision))) +
			" " + draw.Itoa(rs.Available) + "/" + draw.Itoa(rs.Desired) + " " + glyphs.String()
		out = append(out, draw.Fit(line, w))
	}
	return argoSection{full: out, short: out, gives: 9}
}

// argoAnalysis is the AnalysisRuns the Rollout runs now (its step's, the
// background one, blue/green's pre- and post-promotion), else its newest:
// each metric's last values against its condition, the limit it crossed,
// and its counts against its limits — why analysis failed. Short, the
// runs' lines and the metrics that did not succeed, without their counts.
func (v *View) argoAnalysis(w int) argoSection {
	st, r := v.s.Styles, v.ro
	if len(r.Analysis) == 0 {
		return argoSection{}
	}
	var runs []cluster.AnalysisRunView
	for _, a := range r.Analysis {
		if a.Current {
			runs = append(runs, a)
		}
	}
	if len(runs) == 0 {
		runs = r.Analysis[:1]
	}
	var full, short []string
	for _, a := range runs {
		head := st.Label.Render("analysis ") + st.Text.Render(a.Name)
		if a.For != "" {
			head += st.Muted.Render(" · " + a.For)
		}
		head += " " + draw.VerdictPaint(st, a.Phase)(string(a.Phase))
		if a.Message != "" {
			head += st.Muted.Render(" · " + a.Message)
		}
		full = append(full, draw.Fit(head, w))
		short = append(short, draw.Fit(head, w))
		for _, m := range a.Metrics {
			line := draw.MetricLine(st, m, w)
			full = append(full, line, draw.Fit(st.Muted.Render("      "+m.Counts()), w))
			if m.Phase != argo.AnalysisPhaseSuccessful {
				short = append(short, line)
			}
		}
	}
	if n := len(r.Analysis) - len(runs); n > 0 {
		full = append(full, draw.Fit(st.Muted.Render("  and "+model.Plural(n, "older AnalysisRun")), w))
	}
	return argoSection{full: full, short: short, gives: 3}
}

// argoHistory is the revisions of the Rollout's ReplicaSets with the
// cursor (u undoes to the one under it) and the diff an undo to it would
// make, drawn as the other kinds' history; it is the first to give way,
// short the cursor's revision alone.
func (v *View) argoHistory(w int) argoSection {
	h := v.history()
	if len(h) == 0 {
		return argoSection{}
	}
	full := v.historyLines(w, "history (ReplicaSets' rollout.argoproj.io/revision) · ↑/↓ choose, u undo to it")
	short := []string{full[0]}
	if v.cursor < len(h) {
		short = append(short, full[1+v.cursor])
	}
	return argoSection{full: full, short: short, gives: 1}
}
