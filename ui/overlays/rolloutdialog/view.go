package rolloutdialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
)

// View draws the dialog in place of the panes, scrolled by its frame with
// its keys under it.
func (d *Dialog) View() string { return d.frame.Draw(d.s, d.content(), d.keys(), d.w, d.h) }

// content is everything the dialog says: what is being built, why input
// was refused, and at the confirmation what will be sent.
func (d *Dialog) content() []string {
	w := d.w
	s := d.s
	st := s.Styles
	v := draw.Lines{W: w}
	v.Add(st.Accent.Render(" " + d.heading()))
	switch d.stage {
	case stagePickContainer:
		v.Add(st.Muted.Render(" which container? ↑/↓ then enter"))
		for i, c := range d.containers {
			line := draw.Fit(fmt.Sprintf("   %-24s %s", c.Name, c.Image), w)
			if i == d.cursor {
				line = st.Selected.Render(draw.Mark(line, true))
			}
			v.Add(line)
		}
	case stageInput:
		v.Add(st.Muted.Render(" " + d.prompt))
		v.Add(st.Accent.Render(" > ") + st.Text.Render(d.input) + "█")
		if d.req.Action == action.SetEnv {
			for _, c := range d.containers {
				if c.Name == d.req.Container && len(c.Env) > 0 {
					v.Add(st.Muted.Render(" now: " + strings.Join(c.Env, "  ")))
				}
			}
		}
		if len(d.completions) > 0 {
			v.Add(st.Muted.Render(" earlier: " + strings.Join(d.completions, "  ")))
		}
	case stagePickRevision:
		v.Add(st.Muted.Render(" undo to which revision? ↑/↓ then enter"))
		revW := 4 // the revisions line up however many digits they have
		for _, r := range d.revisions {
			revW = max(revW, draw.DigitsOf(r.Revision))
		}
		for i, r := range d.revisions {
			note := ""
			switch {
			case r.Current:
				note = " (current)"
			case r.Gone:
				note = " (now " + draw.Itoa(r.Now) + ")"
			}
			cause := r.ChangeCause
			if cause == "" {
				cause = "<none>"
			}
			line := draw.Fit(fmt.Sprintf("   %*d%-10s %-40s %s", revW, r.Revision, note, cause, strings.Join(r.Images, ",")), w)
			switch {
			case i == d.cursor:
				line = st.Selected.Render(draw.Mark(line, true))
			case r.Gone:
				line = st.Muted.Render(line)
			}
			v.Add(line)
		}
	}
	// Reasons and plans wrap: cut off, they would lose their point.
	if d.problem != "" {
		v.Wrap(st.Bad.Render, " ✖ ", d.problem)
	}
	if d.refusal != "" {
		v.Wrap(st.Warn.Render, " ", d.refusal)
	}
	if d.stage == stageConfirm || d.stage == stagePickRevision {
		if d.stage == stageConfirm && d.refusal == "" {
			if d.req.Action == action.Abort {
				v.Add(st.Text.Render(" will send:"))
			} else {
				v.Add(st.Text.Render(" will send the same as:"))
			}
			v.Wrap(st.Accent.Render, "   ", d.s.Kubectl(d.req))
		}
		for _, p := range d.plan {
			v.Wrap(st.Text.Render, "   ", p)
		}
		if d.stage == stageConfirm && d.refusal == "" && d.req.Spec().Forecast {
			f := d.forecast
			if f == "" {
				f = "working out what the rollout will do …"
			}
			v.Wrap(st.Accent.Render, " forecast: ", f)
		}
		if d.req.Action == action.Undo && d.stage == stageConfirm && d.refusal == "" {
			switch {
			case !d.diffReady:
				v.Add(st.Muted.Render(" reading the pod template of revision " + draw.Itoa(d.req.Revision) + " …"))
			case d.diffErr != nil:
				v.Add(st.Bad.Render(" cannot preview: " + d.diffErr.Error()))
			case len(d.diff) == 0:
				v.Add(st.Muted.Render(fmt.Sprintf(" pod template: revision %d is the same as the current one", d.req.Revision)))
			default:
				v.Add(st.Muted.Render(fmt.Sprintf(" pod template: current → revision %d (%s)", d.req.Revision, cluster.UndoDiffLegend)))
			}
		}
		// The diff scrolls with the rest of the dialog (its frame).
		for _, l := range d.diff {
			text := draw.Fit("   "+string(l.Op)+" "+l.Text, w)
			switch l.Op {
			case '+':
				text = s.Paints.OK.On(text)
			case '-':
				text = s.Paints.Bad.On(text)
			default:
				text = s.Paints.Muted.On(text)
			}
			v.Add(text)
		}
	}
	return v.All()
}

// heading names the dialog.
func (d *Dialog) heading() string {
	r := d.req
	h := r.Spec().Title + " · deployment/" + r.Name
	if r.Container != "" {
		h += " · container " + r.Container
	}
	return h
}

// KeyMap is the dialog's keys, for the footer: its own and, while it has
// more to say than fits, the scroll keys.
func (d *Dialog) KeyMap() help.KeyMap { return d.frame.KeyMap(d.keys()) }

// keys is the dialog's own keys at its stage.
func (d *Dialog) keys() help.KeyMap {
	switch {
	case d.stage == stageConfirm && d.refusal != "":
		return keys.Hints("enter/esc", "close — nothing will be sent")
	case d.stage == stageConfirm && canCanary(d.req):
		return keys.Hints("y", "send", "n/esc", "cancel", "c", "roll as canary")
	case d.stage == stageConfirm:
		return keys.Hints("y", "send", "n/esc", "cancel")
	case d.stage == stageInput:
		send := "next"
		if d.s.AssumeYes {
			send = "send (--yes)"
		}
		return keys.Hints("enter", send, "esc", "cancel", "tab", "complete", "ctrl+u", "clear")
	}
	return keys.Hints("enter", "choose", "esc", "cancel", "↑/↓", "move")
}
