// Package rcdialog is the ReplicationController view's dialog: it starts a
// legacy rolling update (i) — the image and the limits are typed, checked
// and planned, then the plan waits for y — or aborts one (x). On y the
// request goes to the console's one request runner.
package rcdialog

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Dialog is the dialog, drawn under the controllers.
type Dialog struct {
	s               *screen.Screen
	w               int
	namespace, name string
	abort           bool
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
	// basis is the controller the plan was made from; moved says what
	// changed when y found it moved, and refused that nothing is left to
	// send.
	basis   basis
	moved   string
	refused bool
	// frame scrolls what the dialog says under its keys.
	frame screen.Frame
}

var fieldNames = [...]string{"image", "maxSurge", "maxUnavailable", "update period"}

// Update starts the form of an update of controller name with kubectl
// rolling-update's defaults.
func Update(s *screen.Screen, namespace, name string) *Dialog {
	return &Dialog{s: s, namespace: namespace, name: name, fields: [4]string{"", "1", "0", "1m"}}
}

// Abort asks for y before rolling back the update v, which name takes
// part in, saying what will happen, or sends at once with --yes.
func Abort(s *screen.Screen, namespace, name string, v cluster.RCUpdateView) (*Dialog, tea.Cmd) {
	d := &Dialog{s: s, namespace: namespace, name: name, abort: true, lines: abortLines(v)}
	_, d.basis = d.now()
	if s.AssumeYes {
		return d.send()
	}
	return d, nil
}

func (d *Dialog) input() action.RCUpdateInput {
	return action.RCUpdateInput{Name: d.name, Image: strings.TrimSpace(d.fields[0]), MaxSurge: strings.TrimSpace(d.fields[1]),
		MaxUnavailable: strings.TrimSpace(d.fields[2]), UpdatePeriod: strings.TrimSpace(d.fields[3])}
}

// SetSize sizes the dialog to the room the view leaves it under the
// controllers.
func (d *Dialog) SetSize(w, h int) { d.w = w; d.frame.SetSize(w, h) }

// KeyMap is the dialog's keys: its own and, while it has more to say than
// fits, the scroll keys.
func (d *Dialog) KeyMap() help.KeyMap { return d.frame.KeyMap(d.keys()) }

// keys is the dialog's own keys at its stage.
func (d *Dialog) keys() help.KeyMap {
	switch {
	case d.refused:
		return keys.Hints("y/n/esc", "close")
	case d.abort:
		return keys.Hints("y", "abort", "n/esc", "keep going")
	case d.plan != nil:
		return keys.Hints("y", "send", "n/esc", "cancel")
	case d.planning:
		return keys.Hints("esc", "cancel")
	}
	return keys.Hints("enter", "check and plan", "esc", "cancel", "tab", "next field")
}

// Planned brings a plan, or why there is none, back to the dialog.
type Planned struct {
	plan action.RCPlan
	err  error
}

// Update handles a key or the plan; it returns nil once the dialog has
// closed.
func (d *Dialog) Update(msg tea.Msg) (*Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case Planned:
		return d.planned(msg)
	case tea.KeyPressMsg:
		// The form types text; the plan and the questions scroll.
		if d.frame.Move(msg, d.s.Keys, d.plan == nil && !d.abort && !d.refused, len(d.content())) {
			return d, nil
		}
		return d.key(msg)
	case tea.MouseWheelMsg:
		d.frame.Move(msg, d.s.Keys, false, len(d.content()))
	}
	return d, nil
}

func (d *Dialog) key(msg tea.KeyPressMsg) (*Dialog, tea.Cmd) {
	d.problem = ""
	if key.Matches(msg, d.s.Keys.Back) {
		return nil, nil
	}
	if d.refused {
		switch msg.Text {
		case "y", "Y", "n", "N":
			return nil, nil
		}
		return d, nil
	}
	if d.abort || d.plan != nil {
		switch msg.Text {
		case "y", "Y":
			return d.confirm()
		case "n", "N":
			return nil, nil
		}
		return d, nil
	}
	if d.planning {
		return d, nil
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
		return d, d.ask()
	default:
		d.fields[d.field] += msg.Text
	}
	return d, nil
}

// ask has the fields checked and the update planned.
func (d *Dialog) ask() tea.Cmd {
	in := d.input()
	if in.Image == "" {
		d.problem = "type the new image, such as nginx:1.27"
		return nil
	}
	d.planning = true
	acts, ns := d.s.Actions, d.namespace
	return screen.Ask(func(ctx context.Context) tea.Msg {
		plan, err := acts.PlanRCUpdate(ctx, ns, in)
		return Planned{plan: plan, err: err}
	})
}

// planned shows the plan, or why the input was refused.
func (d *Dialog) planned(msg Planned) (*Dialog, tea.Cmd) {
	if !d.planning {
		return d, nil
	}
	d.planning = false
	if msg.err != nil {
		d.problem = msg.err.Error()
		return d, nil
	}
	p := msg.plan
	d.plan = &p
	d.lines = planLines(p)
	_, d.basis = d.now()
	if d.s.AssumeYes {
		return d.send()
	}
	return d, nil
}

// planLines say what the update will do, in the operator's words.
func planLines(p action.RCPlan) []string {
	old := p.Request.Old
	lines := []string{
		fmt.Sprintf("Container %s of replicationcontroller/%s: %s → %s", p.Container, old, p.FromImage, p.Request.Image),
		fmt.Sprintf("Create %s at 0 and grow it to %s while %s shrinks to 0", p.Next, model.Plural(p.Replicas, "replica"), old),
		fmt.Sprintf("maxSurge %d, maxUnavailable %d: at most %s, at least %d available", p.Limits.MaxSurge, p.Limits.MaxUnavailable, model.Plural(p.Limits.Ceiling(), "pod"), p.Limits.MinAvailable),
		fmt.Sprintf("Wait %v after each scale-up (update period)", p.UpdatePeriod),
	}
	if p.Rename {
		lines = append(lines, fmt.Sprintf("Then %s is renamed back to %s", p.Next, old))
	} else {
		lines = append(lines, fmt.Sprintf("Then %s is deleted", old))
	}
	return append(lines, "Abort with x at any time before the rename: "+old+" grows back, "+p.Next+" goes")
}

// send closes the dialog and hands the update or the abort to the runner.
func (d *Dialog) send() (*Dialog, tea.Cmd) {
	if d.abort {
		r := action.Request{Action: action.RCAbort, Namespace: d.namespace, Name: d.name}
		return nil, d.s.SendAs(r, "abort of rc/"+d.name)
	}
	r := action.Request{Action: action.RCUpdate, Namespace: d.namespace, Name: d.name, RCUpdate: d.plan.Request}
	return nil, d.s.SendAs(r, "rolling update of rc/"+d.name+" to "+r.RCUpdate.Image)
}

// View draws the dialog under the controllers, scrolled by its frame with
// its keys under it.
func (d *Dialog) View() string {
	return d.frame.Draw(d.s, d.content(), d.keys(), d.w, d.frame.Room()+1)
}

// content is everything the dialog says.
func (d *Dialog) content() []string {
	st, w := d.s.Styles, d.w
	var out []string
	switch {
	case d.refused:
		// What the plan said no longer holds: only why is shown.
		title := "Rolling update of rc/" + d.name
		if d.abort {
			title = "Abort the rolling update of rc/" + d.name
		}
		out = append(out, draw.Fit(st.Accent.Render(title), w))
	case d.abort:
		out = append(out, draw.Fit(st.Accent.Render("Abort the rolling update of rc/"+d.name+"?"), w))
		out = append(out, indented(d.lines, w)...)
	case d.plan != nil:
		out = append(out, draw.Fit(st.Accent.Render("Rolling update of rc/"+d.name+" — send?"), w))
		out = append(out, indented(d.lines, w)...)
	default:
		out = append(out, draw.Fit(st.Accent.Render("Rolling update of rc/"+d.name), w))
		for i, f := range d.fields {
			mark, text := "  ", f
			if i == d.field {
				mark, text = "▶ ", f+"█"
			}
			out = append(out, draw.Fit(fmt.Sprintf("%s%-15s %s", mark, fieldNames[i], text), w))
		}
		if d.planning {
			out = append(out, draw.Fit(st.Muted.Render("  planning …"), w))
		}
	}
	for _, p := range []string{d.moved, d.problem} {
		if p == "" {
			continue
		}
		for _, l := range draw.Wrap("✖ "+p, w) {
			out = append(out, st.Bad.Render(draw.Fit(l, w)))
		}
	}
	return out
}

// indented indents lines and wraps them to w.
func indented(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		for _, part := range draw.Wrap(l, max(w-2, 1)) {
			out = append(out, draw.Fit("  "+part, w))
		}
	}
	return out
}
