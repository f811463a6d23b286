package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/ui/draw"
)

// The ReplicationController view (`:rc NAME`) shows a legacy rolling
// update: the old and the next controller side by side, the phase, the
// headroom, the update's annotations and its progress lines; i starts an
// update, x aborts one, esc goes back to the deployment.

// rcScreen is the open view.
type rcScreen struct {
	namespace, name string
	view            model.RCUpdateView
	found           bool
	dialog          *rcDialog
}

// rcName reads `:rc NAME`, `:rc/NAME` and the long spellings from the
// picker's query.
func rcName(query string) (string, bool) {
	q := strings.TrimSpace(query)
	for _, prefix := range []string{"rc/", "rc ", "replicationcontroller/", "replicationcontroller ", "replicationcontrollers/"} {
		if strings.HasPrefix(q, prefix) {
			return strings.TrimSpace(q[len(prefix):]), true
		}
	}
	return "", false
}

// rcPickerKey opens the view when enter ends an `:rc NAME` query; ok is
// false for every other key, which the picker handles.
func (m Model) rcPickerKey(msg tea.KeyPressMsg) (Model, bool) {
	p := m.picker
	if p.mode != ':' || msg.Code != tea.KeyEnter {
		return m, false
	}
	name, ok := rcName(p.query)
	if !ok {
		return m, false
	}
	m.picker = nil
	if name == "" {
		m.toast = "give the ReplicationController's name: :rc NAME"
		return m, true
	}
	m.rc = &rcScreen{namespace: m.s.namespace, name: name}
	m.refreshRC()
	return m, true
}

// rcQueryLines replace the deployment list while `:rc NAME` is typed, so
// that the picker does not say no deployment matches; nil otherwise.
func (m *Model) rcQueryLines(w int) []string {
	p := m.picker
	if p.mode != ':' {
		return nil
	}
	name, ok := rcName(p.query)
	if !ok {
		return nil
	}
	st := m.s.styles
	hint := "enter opens the rolling update view of replicationcontroller " + name + " in " + draw.OrDash(m.s.namespace)
	if name == "" {
		hint = "type the ReplicationController's name"
	}
	return []string{draw.Fit(st.Accent.Render(":"+p.query+"█")+"  "+st.Muted.Render(hint), w)}
}

// refreshRC reads the view again; called from refresh.
func (m *Model) refreshRC() {
	r := m.rc
	if r == nil {
		return
	}
	r.view, r.found = m.s.src.RCUpdate(r.namespace, r.name)
}

// rcKey handles the view's keys; ok is false for keys it leaves to the
// global ones (:, ?, q, the clock).
func (m Model) rcKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	r := m.rc
	if r.dialog != nil {
		next, cmd := m.rcDialogKey(msg)
		return next, cmd, true
	}
	if key.Matches(msg, m.keys.Back) {
		m.rc = nil
		return m, nil, true
	}
	// The view's keys are its own: disabled, they say why rather than
	// falling through to the deployment's set image and abort.
	var kind action.Name
	switch k := m.keys; {
	case k.Bound(action.RCUpdate, msg):
		kind = action.RCUpdate
	case k.Bound(action.RCAbort, msg):
		kind = action.RCAbort
	default:
		return m, nil, false
	}
	b := m.keys.Action(kind)
	switch {
	case !b.Enabled():
		m.toast = b.Help().Desc + ": " + m.keys.DisabledReason(string(kind))
	case m.busy != "":
		m.toast = "still waiting for " + m.busy + " — one action at a time"
	case !r.found:
		m.toast = "replicationcontroller " + r.name + " not found in namespace " + draw.OrDash(r.namespace)
	case kind == action.RCUpdate && r.view.Updating:
		m.toast = "rc/" + r.name + " is already being updated — let it finish or abort it with x"
	case kind == action.RCUpdate:
		r.dialog = newRCDialog()
	default:
		if why := abortRefusal(r.view); why != "" {
			m.toast = why
			return m, nil, true
		}
		v := r.view
		r.dialog = &rcDialog{abort: true, lines: []string{
			fmt.Sprintf("%s grows back to %d replicas (%s), %s shrinks to 0 and is deleted", v.Old.Name, rcOriginal(v), strings.Join(v.Old.Images, ","), v.Next.Name),
			"The same limits apply with the roles swapped",
		}}
		if m.assumeYes {
			next, cmd := m.rcSend()
			return next, cmd, true
		}
	}
	return m, nil, true
}

// abortRefusal says why there is nothing to abort, "" when there is. The
// way back comes first: the footer may cut the rest.
func abortRefusal(v model.RCUpdateView) string {
	const instead = "start a new rolling update with the old image (i) to go back"
	switch {
	case !v.Updating:
		return "no update of rc/" + v.Name + " to abort: " + instead
	case v.Phase == model.RCPhaseRename || v.Old.Images == nil:
		return "nothing old left to restore (" + v.Next.Name + " is being renamed to " + v.Name + "): let it finish, then " + instead
	case v.Next.Images == nil:
		return "nothing to abort, " + draw.OrDash(v.Next.Name) + " does not exist: " + instead
	case v.Rollback:
		return "the update of rc/" + v.Name + " is already being rolled back"
	}
	return ""
}

// rcOriginal is the size an abort restores.
func rcOriginal(v model.RCUpdateView) int32 {
	if v.Original > 0 {
		return v.Original
	}
	return v.Desired
}

// rcLines draws the view in the body's place.
func (m *Model) rcLines(w, h int) []string {
	r := m.rc
	st := m.s.styles
	out := make([]string, 0, h)
	if !r.found {
		out = append(out, draw.Fit(st.Accent.Render("rc/"+r.name), w),
			draw.Fit(st.Muted.Render("replicationcontroller "+r.name+" not found in namespace "+draw.OrDash(r.namespace)+" — esc goes back"), w))
		return out
	}
	v := r.view
	phase := string(v.Phase)
	if v.Rollback {
		phase += " (rolling back)"
	}
	title := st.Accent.Render("rc/"+v.Name) + "  " + st.Label.Render("phase ") + st.Text.Render(phase) +
		"  " + st.Label.Render("desired ") + st.Text.Render(draw.Itoa(v.Desired))
	if v.Updating {
		title += "  " + st.Label.Render("maxSurge ") + st.Text.Render(draw.Itoa(v.Limits.MaxSurge)) +
			"  " + st.Label.Render("maxUnavailable ") + st.Text.Render(draw.Itoa(v.Limits.MaxUnavailable))
		if v.Request != nil {
			title += "  " + st.Label.Render("update period ") + st.Text.Render(time.Duration(v.Request.WithDefaults().UpdatePeriod).String())
		}
	}
	out = append(out, draw.Fit(title, w))
	half := (w - 2) / 2
	out = append(out, draw.Fit(draw.Bar(st, "surge", v.Surge, st.SurgeBar.Render, half)+"  "+
		draw.Bar(st, "unavailable", v.Unavailable, st.UnavailableBar.Render, w-2-half), w))
	left := m.rcColumn("old", v.Old, half)
	right := m.rcColumn("next", v.Next, w-2-half)
	for i := 0; i < max(len(left), len(right)); i++ {
		l, rt := strings.Repeat(" ", half), ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			rt = right[i]
		}
		out = append(out, draw.Fit(l+st.Separator.Render("│ ")+rt, w))
	}
	if len(v.Events) > 0 {
		out = append(out, draw.Fit(st.Label.Render("progress"), w))
		for _, e := range v.Events {
			line := "  " + e.Time.UTC().Format("15:04:05") + "  " + e.Message
			if e.Warning {
				line = st.Bad.Render(draw.Fit(line, w))
			}
			out = append(out, draw.Fit(line, w))
		}
	}
	if r.dialog != nil {
		out = append(out, "")
		out = append(out, r.dialog.view(m.s, v.Name, w)...)
	} else {
		out = append(out, draw.Fit(st.Muted.Render("i new image · x abort · esc back · : another"), w))
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}

// rcColumn draws one controller: name, image, sizes, annotations, pods.
func (m *Model) rcColumn(role string, c model.RCRow, w int) []string {
	st := m.s.styles
	if c.Name == "" {
		return []string{draw.Fit(st.Label.Render(role+" ")+st.Muted.Render("none"), w)}
	}
	if c.Images == nil {
		return []string{draw.Fit(st.Label.Render(role+" ")+st.Text.Render(c.Name)+st.Muted.Render(" (gone)"), w)}
	}
	out := []string{
		draw.Fit(st.Label.Render(role+" ")+st.Text.Render(c.Name), w),
		draw.Fit("  "+strings.Join(c.Images, ","), w),
		draw.Fit(fmt.Sprintf("  desired/current/ready %d/%d/%d", c.Desired, c.Current, c.Ready), w),
	}
	for _, a := range c.Annotations {
		out = append(out, draw.Fit(st.Muted.Render("  "+a), w))
	}
	gw := max(w-2, 1)
	for i := 0; i < len(c.Pods); i += gw {
		var b strings.Builder
		b.WriteString("  ")
		for _, p := range c.Pods[i:min(i+gw, len(c.Pods))] {
			s := draw.StateIndex(p.State)
			b.WriteString(m.s.paints.Pod[s].On(draw.PodGlyphs[s]))
		}
		out = append(out, draw.Fit(b.String(), w))
	}
	return out
}
