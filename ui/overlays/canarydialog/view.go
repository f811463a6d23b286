package canarydialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"

	"rollscope/model/action"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
)

// View draws the dialog in place of the panes, scrolled by its frame with
// its keys under it.
func (d *Dialog) View() string { return d.frame.Draw(d.s, d.content(), d.keys(), d.w, d.h) }

// content is everything the dialog says; prompts and plans wrap rather
// than lose their end.
func (d *Dialog) content() []string {
	st := d.s.Styles
	v := draw.Lines{W: d.w}
	v.Add(st.Accent.Render(" " + d.heading()))
	switch d.stage {
	case stageLoading:
		v.Add(st.Muted.Render(" reading the containers of deployment/" + d.req.Name + " …"))
	case stagePickContainer:
		v.Add(st.Muted.Render(" which container? ↑/↓ then enter"))
		for i, c := range d.containers {
			line := draw.Fit(fmt.Sprintf("   %-24s %s", c.Name, c.Image), d.w)
			if i == d.cursor {
				line = st.Selected.Render(draw.Mark(line, true))
			}
			v.Add(line)
		}
	case stageReadingGates:
		v.Add(st.Muted.Render(" reading the metric gates of " + strings.Join(d.req.Canary.Templates, ", ") + " …"))
	case stageChange, stageSteps, stageHold, stageOnFailure, stageAnalysis:
		v.Wrap(st.Muted.Render, " ", d.prompt())
		v.Add(st.Accent.Render(" > ") + st.Text.Render(d.input) + "█")
		if d.stage != stageChange {
			v.Wrap(st.Muted.Render, " change: ", changeWords(d.req))
		}
	case stageConfirm:
		if d.req.Action == action.Canary {
			v.Wrap(st.Text.Render, " ", changeWords(d.req)+", in steps:")
		}
		for _, l := range d.lines {
			v.Wrap(st.Text.Render, "   ", l)
		}
		v.Wrap(st.Text.Render, " ", "will send, one update per step (with the resourceVersion read), the same as:")
		// Requests are cut at the width, never shortened: a patch is
		// only worth showing whole.
		for _, r := range d.requests {
			for _, piece := range cut(r, d.w-4) {
				v.Add(st.Accent.Render("   " + piece))
			}
		}
	}
	if d.problem != "" {
		v.Wrap(st.Bad.Render, " ✖ ", d.problem)
	}
	if d.refusal != "" {
		v.Wrap(st.Warn.Render, " ", d.refusal)
	}
	return v.All()
}

// prompt says what the input line is for.
func (d *Dialog) prompt() string {
	switch d.stage {
	case stageChange:
		return "new image for " + d.req.Container + " (or NAME=value / NAME- to change a variable)"
	case stageSteps:
		return fmt.Sprintf("steps: pods or %% of %d replicas, rounded up as maxSurge is; 100%% is added as the last", d.s.Rollout.Replicas)
	case stageHold:
		return "hold at each step: pause (until you promote, P) or a duration the gates must pass for (2m); one, or one per step"
	case stageOnFailure:
		return "on a failed gate: pause (hold and say which gate) or abort (back to the stable revision, as x)"
	case stageAnalysis:
		return "metric gates: AnalysisTemplates whose metrics judge each step (cluster/NAME: a ClusterAnalysisTemplate; gates.yaml: a file of one); empty for none"
	}
	return ""
}

func changeWords(r action.Request) string {
	if r.Image != "" {
		return r.Container + " → " + r.Image
	}
	return r.Container + ": " + r.Env
}

// heading names the dialog.
func (d *Dialog) heading() string {
	what := map[action.Name]string{action.Canary: "Guided canary", action.Promote: "Promote canary", action.PromoteAll: "Promote canary to 100%"}[d.req.Action]
	return what + " · deployment/" + d.req.Name
}

// KeyMap is the dialog's keys, for the footer: its own and, while it has
// more to say than fits, the scroll keys.
func (d *Dialog) KeyMap() help.KeyMap { return d.frame.KeyMap(d.keys()) }

// keys is the dialog's own keys at its stage.
func (d *Dialog) keys() help.KeyMap {
	switch d.stage {
	case stageConfirm:
		return keys.Hints("y", "send", "n/esc", "cancel")
	case stagePickContainer:
		return keys.Hints("enter", "choose", "esc", "cancel", "↑/↓", "move")
	case stageLoading, stageReadingGates:
		return keys.Hints("esc", "cancel")
	}
	return keys.Hints("enter", "next", "esc", "cancel", "ctrl+u", "clear")
}

// cut splits s into pieces of at most w runes.
func cut(s string, w int) []string {
	r := []rune(s)
	if w < 1 {
		return []string{s}
	}
	var out []string
	for len(r) > w {
		out = append(out, string(r[:w]))
		r = r[w:]
	}
	return append(out, string(r))
}

// gateLines are the confirmation's lines for the metric gates: each one's
// query, what it answers now and what its conditions make of that, and
// when the step reads it.
func gateLines(gates []action.GateReading) []string {
	var out []string
	for _, g := range gates {
		from := ""
		if g.Template != "" {
			from = " (" + g.Template + ")"
		}
		out = append(out, fmt.Sprintf("gate %s%s: %s = %s now → %s; %s", g.Metric, from, g.Query, g.Value, g.Phase, g.Schedule))
	}
	return out
}
