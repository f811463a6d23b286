package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/ui/draw"
)

// rcDialog starts (i) or aborts (x) a ReplicationController rolling update:
// for a start, the image and the limits are typed, checked and planned,
// then the plan waits for y.
type rcDialog struct {
	abort bool
	// fields are image, maxSurge, maxUnavailable, update period; field is
	// the one being typed.
	fields [4]string
	field  int
	// planning is set while the plan is on its way.
	planning bool
	plan     *action.RCPlan
	// lines are what the confirmation says will happen.
	lines   []string
	problem string
}

var rcFieldNames = [...]string{"image", "maxSurge", "maxUnavailable", "update period"}

// newRCDialog starts with kubectl rolling-update's defaults.
func newRCDialog() *rcDialog {
	return &rcDialog{fields: [4]string{"", "1", "0", "1m"}}
}

func (d *rcDialog) input(name string) action.RCUpdateInput {
	return action.RCUpdateInput{Name: name, Image: strings.TrimSpace(d.fields[0]), MaxSurge: strings.TrimSpace(d.fields[1]),
		MaxUnavailable: strings.TrimSpace(d.fields[2]), UpdatePeriod: strings.TrimSpace(d.fields[3])}
}

// rcDialogKey handles a key in the open dialog.
func (m Model) rcDialogKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	r := m.rc
	d := r.dialog
	d.problem = ""
	if key.Matches(msg, m.keys.Back) {
		r.dialog = nil
		return m, nil
	}
	if d.abort || d.plan != nil {
		switch msg.Text {
		case "y", "Y":
			return m.rcSend()
		case "n", "N":
			r.dialog = nil
		}
		return m, nil
	}
	if d.planning {
		return m, nil
	}
	switch msg.Code {
	case tea.KeyTab, tea.KeyDown:
		d.field = (d.field + 1) % len(d.fields)
	case tea.KeyUp:
		d.field = (d.field + len(d.fields) - 1) % len(d.fields)
	case tea.KeyBackspace:
		if f := []rune(d.fields[d.field]); len(f) > 0 {
			d.fields[d.field] = string(f[:len(f)-1])
		}
	case tea.KeyEnter:
		return m.rcPlan()
	default:
		d.fields[d.field] += msg.Text
	}
	return m, nil
}

// rcPlan asks cmd to check the fields and plan the update.
func (m Model) rcPlan() (tea.Model, tea.Cmd) {
	r := m.rc
	acts := m.actions
	in := r.dialog.input(r.name)
	if in.Image == "" {
		r.dialog.problem = "type the new image, such as nginx:1.27"
		return m, nil
	}
	r.dialog.planning = true
	ns := r.namespace
	return m, func() tea.Msg {
		ctx, cancel := actionContext()
		defer cancel()
		plan, err := acts.PlanRCUpdate(ctx, ns, in)
		return rcPlannedMsg{in: in, plan: plan, err: err}
	}
}

// rcPlanned shows the plan, or why the input was refused.
func (m Model) rcPlanned(msg rcPlannedMsg) (tea.Model, tea.Cmd) {
	r := m.rc
	if r == nil || r.dialog == nil || !r.dialog.planning {
		return m, nil
	}
	d := r.dialog
	d.planning = false
	if msg.err != nil {
		d.problem = msg.err.Error()
		return m, nil
	}
	p := msg.plan
	d.plan = &p
	d.lines = planLines(p)
	if m.assumeYes {
		return m.rcSend()
	}
	return m, nil
}

// planLines say what the update will do, in the operator's words.
func planLines(p action.RCPlan) []string {
	old := p.Request.Old
	lines := []string{
		fmt.Sprintf("Container %s of replicationcontroller/%s: %s → %s", p.Container, old, p.FromImage, p.Request.Image),
		fmt.Sprintf("Create %s at 0 and grow it to %d replicas while %s shrinks to 0", p.Next, p.Replicas, old),
		fmt.Sprintf("maxSurge %d, maxUnavailable %d: at most %d pods, at least %d available", p.Limits.MaxSurge, p.Limits.MaxUnavailable, p.Limits.Ceiling(), p.Limits.MinAvailable),
		fmt.Sprintf("Wait %v after each scale-up (update period)", p.UpdatePeriod),
	}
	if p.Rename {
		lines = append(lines, fmt.Sprintf("Then %s is renamed back to %s", p.Next, old))
	} else {
		lines = append(lines, fmt.Sprintf("Then %s is deleted", old))
	}
	return append(lines, "Abort with x at any time before the rename: "+old+" grows back, "+p.Next+" goes")
}

// rcSend asks for the update or the abort, once.
func (m Model) rcSend() (tea.Model, tea.Cmd) {
	r := m.rc
	d := r.dialog
	r.dialog = nil
	acts := m.actions
	if m.busy != "" {
		m.toast = "still waiting for " + m.busy + " — one action at a time"
		return m, nil
	}
	ns, name := r.namespace, r.name
	if d.abort {
		m.busy = "abort of the update of rc/" + name
		m.toast = "sending abort …"
		return m, func() tea.Msg {
			ctx, cancel := actionContext()
			defer cancel()
			_, err := acts.Send(ctx, action.Request{Action: action.RCAbort, Namespace: ns, Name: name})
			return rcDoneMsg{what: "abort of rc/" + name, err: err}
		}
	}
	req := d.plan.Request
	m.busy = "rolling update of rc/" + name
	m.toast = "sending rolling update …"
	return m, func() tea.Msg {
		ctx, cancel := actionContext()
		defer cancel()
		_, err := acts.Send(ctx, action.Request{Action: action.RCUpdate, Namespace: ns, Name: name, RCUpdate: req})
		return rcDoneMsg{what: "rolling update of rc/" + name + " to " + req.Image, err: err}
	}
}

// rcDone reports the answer in the footer.
func (m Model) rcDone(msg rcDoneMsg) (tea.Model, tea.Cmd) {
	m.busy = ""
	if msg.err != nil {
		m.toast = "✖ " + msg.what + ": failed — " + msg.err.Error()
	} else {
		m.toast = "✔ " + msg.what + ": asked"
	}
	m.refresh()
	return m, nil
}

// view draws the dialog under the controllers.
func (d *rcDialog) view(s *screen, name string, w int) []string {
	st := s.styles
	var out []string
	switch {
	case d.abort:
		out = append(out, draw.Fit(st.Accent.Render("Abort the rolling update of rc/"+name+"?"), w))
		out = append(out, wrapped(d.lines, w)...)
		out = append(out, draw.Fit(st.Muted.Render("  y abort · n/esc keep going"), w))
	case d.plan != nil:
		out = append(out, draw.Fit(st.Accent.Render("Rolling update of rc/"+name+" — send?"), w))
		out = append(out, wrapped(d.lines, w)...)
		out = append(out, draw.Fit(st.Muted.Render("  y send · n/esc cancel"), w))
	default:
		out = append(out, draw.Fit(st.Accent.Render("Rolling update of rc/"+name), w))
		for i, f := range d.fields {
			mark, text := "  ", f
			if i == d.field {
				mark, text = "▶ ", f+"█"
			}
			out = append(out, draw.Fit(fmt.Sprintf("%s%-15s %s", mark, rcFieldNames[i], text), w))
		}
		hint := "  tab next field · enter check and plan · esc cancel"
		if d.planning {
			hint = "  planning …"
		}
		out = append(out, draw.Fit(st.Muted.Render(hint), w))
	}
	if d.problem != "" {
		for _, l := range draw.Wrap("✖ "+d.problem, w) {
			out = append(out, st.Bad.Render(draw.Fit(l, w)))
		}
	}
	return out
}

// wrapped indents lines and wraps them to w.
func wrapped(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		for _, part := range draw.Wrap(l, max(w-2, 1)) {
			out = append(out, draw.Fit("  "+part, w))
		}
	}
	return out
}
