package workload

import (
	"cmp"
	"strings"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/draw"
)

// View draws the kind's picture and, under it, the prompt or the keys.
func (v *View) View() string {
	w, h := v.w, v.h
	st := v.s.Styles
	if !v.found {
		return strings.Join([]string{draw.Fit(st.Accent.Render(v.Object()), w),
			draw.Fit(st.Muted.Render(string(v.kind)+" "+v.name+" not found in namespace "+draw.OrDash(v.namespace)+" — esc goes back"), w)}, "\n")
	}
	var out []string
	switch v.kind {
	case action.OnStatefulSet:
		out = append(v.statefulSet(w), v.historyLines(w, "history (ControllerRevisions)")...)
	case kind.Rollout:
		out = v.argoRollout(w, h-1)
	default:
		out = append(v.daemonSet(w), v.historyLines(w, "history (ControllerRevisions)")...)
	}
	if v.prompt != nil {
		// The prompt takes what the picture leaves, the whole body when
		// that is too little, and scrolls there with its keys under it.
		room := h - len(out) - 1
		if room < promptMin {
			out, room = out[:0], h
		} else {
			out = append(out, "")
		}
		out = append(out, strings.Split(v.prompt.frame.Draw(v.s, v.prompt.lines(v, w), v.prompt.keyMap(), w, room), "\n")...)
	} else {
		out = append(out, draw.Fit(st.Muted.Render(v.hints()), w))
	}
	if len(out) > h {
		// Keep the keys: they are last.
		out = append(out[:max(h-1, 0)], out[len(out)-1])
		out = out[:min(len(out), h)]
	}
	return strings.Join(out, "\n")
}

// promptMin is the fewest lines the prompt is drawn in under the picture.
const promptMin = 4

func (v *View) hints() string {
	var parts, off []string
	for _, n := range v.actions() {
		b := v.s.Keys.Action(n)
		switch {
		case len(b.Keys()) == 0:
		case v.Refused(string(n)) != "":
			// Refused in the Rollout's state: named, apart, so the
			// operator sees the key exists and that it does not work now.
			off = append(off, b.Keys()[0])
		default:
			parts = append(parts, b.Keys()[0]+" "+strings.TrimSuffix(b.Help().Desc, " ("+viewName(v.kind)+" view)"))
		}
	}
	parts = append(parts, "↑/↓ revision", "esc back")
	if len(off) > 0 {
		// First, so that a narrow line still says which keys are off.
		parts = append([]string{"not now: " + strings.Join(off, " ") + " (? says why)"}, parts...)
	}
	return strings.Join(parts, " · ")
}

// viewName is the kind's API name, the help column of its actions.
func viewName(k action.Object) string {
	e, _ := k.Entry()
	return e.Name
}

// title is the object and its settings, in order of importance: narrow,
// the last settings go first, whole, rather than the line being cut.
func (v *View) title(w int, extra ...string) string {
	st := v.s.Styles
	parts := []draw.Part{{Text: st.Accent.Render(v.Object())}}
	for i := 0; i+1 < len(extra); i += 2 {
		parts = append(parts, draw.Part{Text: "  " + st.Label.Render(extra[i]+" ") + st.Text.Render(extra[i+1]), Drop: i + 1})
	}
	return draw.Parts(parts, w)
}

// statusLines are kubectl's sentence, on a second line rather than cut.
func (v *View) statusLines(status string, done bool, w int) []string {
	st := v.s.Styles
	style := st.Warn.Render
	if done {
		style = st.OK.Render
	}
	return draw.Hanging("", style, status, w, 2)
}

// statefulSet draws the title, the status, the bar and the ordinal strip.
func (v *View) statefulSet(w int) []string {
	st, s := v.s.Styles, v.sts
	mu := draw.Itoa(s.MaxUnavailable)
	if s.MaxUnavailableSpec != "" && s.MaxUnavailableSpec != mu {
		mu += " (" + s.MaxUnavailableSpec + ")"
	}
	out := []string{
		v.title(w, "replicas", draw.Itoa(s.Replicas), "partition", draw.Itoa(s.Partition), "maxUnavailable", mu,
			"policy", s.Policy, "strategy", s.Strategy),
		draw.Fit(st.Label.Render("images ")+st.Text.Render(strings.Join(s.Containers, ", ")), w),
		draw.Fit(st.Label.Render("revisions ")+st.Text.Render("current "+draw.OrDash(s.CurrentRevision)+" ("+draw.Itoa(s.Current)+")  update "+
			draw.OrDash(s.UpdateRevision)+" ("+draw.Itoa(s.Updated)+")"), w),
	}
	out = append(out, v.statusLines(s.Status, s.Done, w)...)
	out = append(out, draw.Fit(draw.Bar(st, "unavailable", s.Unavailable, st.UnavailableBar.Render, w), w))
	// The strip: one cell per ordinal, the partition as a bar before the
	// first ordinal it lets update.
	var strip, marks strings.Builder
	for _, o := range s.Ordinals {
		if !o.BelowPartition && (o.Ordinal == 0 || len(s.Ordinals) > 0 && o.Ordinal == s.Ordinals[0].Ordinal+int(s.Partition)) && s.Partition > 0 {
			strip.WriteString(st.Accent.Render("┃"))
			marks.WriteString(" ")
		}
		cell := "·"
		if o.Exists {
			i := draw.StateIndex(o.State)
			cell = v.s.Paints.Pod[i].On(draw.PodGlyphs[i])
		}
		strip.WriteString(" " + cell)
		// An ordinal without a pod runs no revision yet: no mark.
		mark := " "
		switch {
		case o.Exists && o.Updated:
			mark = st.OK.Render("u")
		case o.Exists:
			mark = st.Muted.Render("o")
		}
		marks.WriteString(" " + mark)
	}
	out = append(out,
		draw.Fit(st.Label.Render("ordinals ")+strip.String(), w),
		draw.Fit(st.Label.Render("revision ")+marks.String(), w),
		draw.Fit(st.Muted.Render("         u update revision · o current · ┃ partition: below it nothing is updated"), w))
	return out
}

// daemonSet draws the title, the status, the bars and a line per node.
func (v *View) daemonSet(w int) []string {
	st, d := v.s.Styles, v.ds
	out := []string{
		v.title(w, "desired", draw.Itoa(d.Desired), "updated", draw.Itoa(d.Updated), "available", draw.Itoa(d.Available),
			"maxSurge", draw.Itoa(d.MaxSurge), "maxUnavailable", draw.Itoa(d.MaxUnavailable), "strategy", d.Strategy),
		draw.Fit(st.Label.Render("images ")+st.Text.Render(strings.Join(d.Containers, ", ")), w),
	}
	out = append(out, v.statusLines(d.Status, d.Done, w)...)
	half := (w - 2) / 2
	out = append(out, draw.Fit(draw.Bar(st, "surge", d.Surge, st.SurgeBar.Render, half)+"  "+
		draw.Bar(st, "unavailable", d.Unavailable, st.UnavailableBar.Render, w-2-half), w))
	for _, n := range d.Nodes {
		var glyphs strings.Builder
		for _, p := range n.Pods {
			i := draw.StateIndex(p.State)
			glyphs.WriteString(v.s.Paints.Pod[i].On(draw.PodGlyphs[i]))
		}
		state := string(n.State)
		switch n.State {
		case cluster.DaemonUpdated:
			state = st.OK.Render(state)
		case cluster.DaemonUnavailable, cluster.DaemonMissing:
			state = st.Bad.Render(state)
		case cluster.DaemonNodeGone:
			state = st.Muted.Render(state)
		default:
			state = st.Warn.Render(state)
		}
		out = append(out, draw.Fit("  "+draw.Fit(st.Text.Render(draw.OrDash(n.Node)), 24)+" "+draw.Fit(state, 12)+" "+glyphs.String(), w))
	}
	return out
}

// revisionMark is what the history says beside revision r: "current" for
// the template's. A StatefulSet mid-rollout names its revisions as its
// status and the revisions line above do: "update" for the one its pods
// move to, "current" for the one the rest still run; a Rollout mid-update
// as its ReplicaSets above do, "canary" (or "preview") and "stable".
func (v *View) revisionMark(r cluster.WorkloadRevision) string {
	if ro := v.ro; v.kind == kind.Rollout && ro.StableHash != "" && ro.StableHash != ro.CurrentHash {
		for _, rs := range ro.ReplicaSets {
			if rs.Name == r.Name {
				if role := argoRole(ro, rs.Hash); role != "old" {
					return role
				}
			}
		}
		return ""
	}
	if s := v.sts; v.kind == action.OnStatefulSet && s.CurrentRevision != "" && s.UpdateRevision != "" && s.CurrentRevision != s.UpdateRevision {
		switch r.Name {
		case s.UpdateRevision:
			return "update"
		case s.CurrentRevision:
			return "current"
		}
		return ""
	}
	if r.Current {
		return "current"
	}
	return ""
}

// historyLines are `kubectl rollout history`'s list with the cursor, and
// the diff of the revision under it against the current template.
func (v *View) historyLines(w int, title string) []string {
	st := v.s.Styles
	h := v.history()
	out := []string{draw.Fit(st.Label.Render(title), w)}
	// As wide as the largest revision: never cut to a false "124…".
	revW := 4
	for _, r := range h {
		revW = max(revW, draw.DigitsOf(r.Revision))
	}
	for i, r := range h {
		line := "  " + draw.Fit(draw.Itoa(r.Revision), revW) + " " + strings.Join(r.Images, ", ")
		if mark := v.revisionMark(r); mark != "" {
			line += st.Muted.Render("  (" + mark + ")")
		}
		if i == v.cursor {
			line = st.Selected.Render(draw.Fit(draw.Mark(line, true), w))
		}
		out = append(out, draw.Fit(line, w))
	}
	if v.cursor < len(h) && !h[v.cursor].Current && changes(h[v.cursor].Diff) {
		// From the template's revision, by the name the list gives it.
		from := "current"
		for _, r := range h {
			if r.Current {
				from = cmp.Or(v.revisionMark(r), from)
			}
		}
		out = append(out, draw.Fit(st.Label.Render(from+" → revision "+draw.Itoa(h[v.cursor].Revision)+" ("+cluster.UndoDiffLegend+"):"), w))
		for _, l := range h[v.cursor].Diff {
			switch l.Op {
			case '-':
				out = append(out, draw.Fit(st.DiffDel.Render("  - "+l.Text), w))
			case '+':
				out = append(out, draw.Fit(st.DiffAdd.Render("  + "+l.Text), w))
			}
		}
	}
	return out
}

// changes reports whether a diff has a line that differs.
func changes(diff []cluster.DiffLine) bool {
	for _, l := range diff {
		if l.Op != ' ' {
			return true
		}
	}
	return false
}
