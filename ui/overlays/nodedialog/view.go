package nodedialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
)

// View draws the dialog in place of the panes, scrolled by its frame with
// its keys under it.
func (d *Dialog) View() string { return d.frame.Draw(d.s, d.content(), d.keys(), d.w, d.h) }

// content is everything the dialog says: the form, the drain preview, and
// at the confirmation what will be sent.
func (d *Dialog) content() []string {
	w := d.w
	st := d.s.Styles
	v := draw.Lines{W: w}
	v.Add(st.Accent.Render(" " + d.heading()))
	if gone := d.gone(); len(gone) > 0 {
		v.Wrap(st.Bad.Render, " ✖ ", strings.Join(gone, ", ")+" no longer exists (deleted or replaced while this dialog was open): nothing will be sent — esc and pick a node again")
	}
	for i, f := range d.fields {
		value := f.text
		if f.toggle {
			value = "[ ]"
			if f.on {
				value = "[x]"
			}
		} else if i == d.cursor && !d.confirming {
			value += "█"
		}
		line := fmt.Sprintf("   %-22s %-12s %s", f.label, value, f.hint)
		if i == d.cursor && !d.confirming {
			v.Add(st.Selected.Render(draw.Fit(draw.Mark(line, true), w)))
		} else {
			v.Add(st.Text.Render(line))
		}
	}
	if d.problem != "" {
		v.Wrap(st.Bad.Render, " ✖ ", d.problem)
	}
	if d.moved != "" {
		v.Wrap(st.Bad.Render, " ✖ ", d.moved)
	}
	if d.rechecking {
		v.Wrap(st.Muted.Render, " ", "checking the nodes again before sending …")
	}
	if d.confirming && !d.refused {
		if d.kind == action.StopRoll {
			v.Wrap(st.Text.Render, " ", "will write "+model.RollStateAnnotation+": "+model.RollStopped+" on the group's nodes")
		} else {
			v.Add(st.Text.Render(" will send the same as:"))
		}
		for _, c := range d.kubectl() {
			v.Wrap(st.Accent.Render, "   ", c)
		}
		for _, p := range d.planLines() {
			v.Wrap(st.Text.Render, "   ", p)
		}
	}
	if d.kind == action.Drain {
		d.previewLines(&v)
	}
	return v.All()
}

// heading names the dialog.
func (d *Dialog) heading() string {
	spec, _ := action.Lookup(d.kind)
	switch d.kind {
	case action.Cordon, action.Uncordon, action.Drain:
		return spec.Title + " · " + strings.Join(d.nodes, ", ")
	case action.RollGroup:
		return fmt.Sprintf("%s %s · %d of %d nodes outdated", spec.Title, d.group, d.roll.Outdated, d.roll.Size)
	case action.StopRoll:
		return spec.Title + " · group " + d.group
	}
	return "Node action"
}

// kubectl is what the request amounts to, as commands an operator knows.
func (d *Dialog) kubectl() []string {
	switch d.kind {
	case action.Cordon, action.Uncordon:
		return []string{d.s.Kubectl(d.request())}
	case action.Drain:
		out := make([]string, 0, len(d.nodes))
		for _, n := range d.nodes {
			out = append(out, d.drain.Kubectl(n))
		}
		return out
	case action.RollGroup:
		c := "kops rolling-update cluster --instance-group " + d.group + " --yes"
		if d.roll.MaxSurge != "" {
			c += " --max-surge " + d.roll.MaxSurge
		}
		if d.roll.MaxUnavailable != "" {
			c += " --max-unavailable " + d.roll.MaxUnavailable
		}
		if d.roll.Interval > 0 {
			c += " --node-interval " + d.roll.Interval.String()
		}
		if d.roll.Step {
			c += " --interactive"
		}
		return []string{c}
	}
	return nil
}

// planLines say what happens after y: the action's own sentence, or for a
// roll its plan and how each node is replaced.
func (d *Dialog) planLines() []string {
	if d.kind != action.RollGroup {
		if spec, _ := action.Lookup(d.kind); spec.Does != "" {
			return []string{spec.Does}
		}
		return nil
	}
	out := []string{d.plan}
	switch {
	case !d.defaults.Live:
		out = append(out, "per node: cordon → drain → the group replaces it with the current spec → wait the interval → validate")
	case d.defaults.DeleteNodes:
		out = append(out, "per node: cordon → drain → delete the Node object (--delete-nodes) → wait the interval → validate; your own machinery must bring the replacement")
	default:
		out = append(out, "per node: cordon → drain → leave it cordoned for your own machinery to replace (no --delete-nodes) → validate, waiting for the replacement capacity")
	}
	if d.roll.Step {
		out = append(out, "stepped: waits after every node until n")
	}
	return out
}

// previewLines say what the drain will do to each node's pods.
func (d *Dialog) previewLines(v *draw.Lines) {
	st := d.s.Styles
	switch {
	case d.previewErr != "":
		v.Wrap(st.Bad.Render, " cannot preview: ", d.previewErr)
		return
	case !d.previewed:
		v.Wrap(st.Muted.Render, " ", "reading the pods and PodDisruptionBudgets of the node …")
		return
	}
	for _, n := range d.nodes {
		p := d.previews[n]
		head := fmt.Sprintf(" %s: evicts %s", n, model.Plural(len(p.Evict), "pod"))
		if d.drain.DisableEviction || d.fields[drainDisableEviction].on {
			head = fmt.Sprintf(" %s: deletes %s (eviction disabled: no PodDisruptionBudget is asked)", n, model.Plural(len(p.Evict), "pod"))
		}
		v.Wrap(st.Text.Render, "", head)
		if len(p.Evict) > 0 {
			v.Wrap(st.Muted.Render, "   ", strings.Join(p.Evict, " "))
		}
		for _, b := range p.Budgets {
			v.Wrap(st.Text.Render, "   ", b)
		}
		for _, b := range model.GroupBlocked(p.Blocked) {
			v.Wrap(st.Warn.Render, "   will wait: ", b)
		}
		for _, g := range p.Warnings {
			v.Wrap(st.Muted.Render, "   ", g.Message+": "+strings.Join(g.Pods, ", "))
		}
		for _, g := range p.Refusals {
			v.Wrap(st.Bad.Render, "   refused: ", "cannot delete "+g.Message+": "+strings.Join(g.Pods, ", "))
		}
	}
}

// KeyMap is the dialog's keys, for the footer: its own and, while it has
// more to say than fits, the scroll keys.
func (d *Dialog) KeyMap() help.KeyMap { return d.frame.KeyMap(d.keys()) }

// keys is the dialog's own keys at its stage.
func (d *Dialog) keys() help.KeyMap {
	switch {
	case d.refused:
		return keys.Hints("y/n/esc", "close")
	case d.confirming:
		return keys.Hints("y", "send", "n/esc", "cancel")
	case d.s.AssumeYes:
		return keys.Hints("enter", "send (--yes)", "esc", "cancel", "↑/↓", "field", "space", "toggle", "type", "to edit")
	}
	return keys.Hints("enter", "next", "esc", "cancel", "↑/↓", "field", "space", "toggle", "type", "to edit")
}
