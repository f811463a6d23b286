// Package rc is the ReplicationController page (`:rc NAME`,
// `rollscope rc/NAME`), drawn in place of the rollout page's panes (which
// keep the header, the footer and the keys it does not take): a legacy rolling
// update with the old and the next controller side by side, the phase, the
// headroom, the update's annotations and its progress lines. Its own keys —
// i starts an update, x aborts one, esc goes back to the deployment — are
// rc-update and rc-abort in the key map; every other key keeps its global
// meaning.
package rc

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/overlays/rcdialog"
	"rollscope/ui/screen"
)

// View is the open view.
type View struct {
	s               *screen.Screen
	w, h            int
	namespace, name string
	view            cluster.RCUpdateView
	found           bool
	dialog          *rcdialog.Dialog
}

var _ screen.Body[*View] = (*View)(nil)

// NewPage is the page of controller name in namespace, over base (the
// rollout page).
func NewPage(s *screen.Screen, base screen.Page, namespace, name string) screen.Page {
	return screen.NewOver(base, New(s, namespace, name))
}

// New opens the view of controller name in namespace.
func New(s *screen.Screen, namespace, name string) *View {
	v := &View{s: s, namespace: namespace, name: name}
	v.Read()
	return v
}

// Read reads the view again from the source; the root calls it with every
// refresh.
func (v *View) Read() { v.view, v.found = v.s.Src.RCUpdate(v.namespace, v.name) }

// SetSize sizes the view to the body.
func (v *View) SetSize(w, h int) {
	v.w, v.h = w, h
	if v.dialog != nil {
		v.dialog.SetSize(w, h)
	}
}

// Object is the controller shown, for the page's header.
func (v *View) Object() string { return "rc/" + v.name }

// Namespace is the controller's namespace, for the page's header.
func (v *View) Namespace() string { return v.namespace }

// KeyMap is the page's keys: the dialog's while it is open, else the
// view's own and the console's that act here.
func (v *View) KeyMap() help.KeyMap {
	if v.dialog != nil {
		return v.dialog.KeyMap()
	}
	k := v.s.Keys
	return keys.Pane{k.Action(action.RCUpdate), k.Action(action.RCAbort), k.Back, k.Help, k.Command, k.Quit}
}

// Typing reports whether the dialog takes every key, text included.
func (v *View) Typing() bool { return v.dialog != nil }

// Writes reports whether the RC dialog, which always writes, is open: the
// console holds the embedded clock meanwhile.
func (v *View) Writes() bool { return v.dialog != nil }

// Takes reports whether msg is the view's to handle: every key while its
// dialog is open, else esc, i and x — enabled or not, so that a disabled i
// says why rather than falling through to the deployment's set image.
func (v *View) Takes(msg tea.KeyPressMsg) bool {
	k := v.s.Keys
	return v.dialog != nil || key.Matches(msg, k.Back) || k.Bound(action.RCUpdate, msg) || k.Bound(action.RCAbort, msg)
}

// Moves is false: the view has no list or cursor for the Move keys, so
// the help does not list them over it.
func (v *View) Moves() bool { return false }

// Update handles the view's keys and the dialog's messages; it returns nil
// once esc has closed the view.
func (v *View) Update(msg tea.Msg) (*View, tea.Cmd) {
	var cmd tea.Cmd
	if v.dialog != nil {
		v.dialog, cmd = v.dialog.Update(msg)
		return v, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil
	}
	if key.Matches(k, v.s.Keys.Back) {
		return nil, nil
	}
	kind := action.RCAbort
	if v.s.Keys.Bound(action.RCUpdate, k) {
		kind = action.RCUpdate
	}
	v.dialog, cmd = v.open(kind)
	if v.dialog != nil {
		v.dialog.SetSize(v.w, v.h)
	}
	return v, cmd
}

// open opens the dialog for kind, or says in the footer why it cannot.
func (v *View) open(kind action.Name) (*rcdialog.Dialog, tea.Cmd) {
	s, k := v.s, v.s.Keys
	b := k.Action(kind)
	switch {
	case !b.Enabled():
		s.Toast = b.Help().Desc + ": " + k.DisabledReason(string(kind))
	case s.StillBusy():
	case !v.found:
		s.Toast = "replicationcontroller " + v.name + " not found in namespace " + draw.OrDash(v.namespace)
	case kind == action.RCUpdate && v.view.Updating:
		s.Toast = "rc/" + v.name + " is already being updated — let it finish or abort it with x"
	case kind == action.RCUpdate:
		return rcdialog.Update(s, v.namespace, v.name), nil
	default:
		if why := rcdialog.AbortRefusal(v.view); why != "" {
			s.Toast = why
			return nil, nil
		}
		return rcdialog.Abort(s, v.namespace, v.name, v.view)
	}
	return nil, nil
}

// View draws the controllers and, under them, the dialog or the view's keys.
func (v *View) View() string {
	w, h := v.w, v.h
	st := v.s.Styles
	out := make([]string, 0, h)
	if !v.found {
		out = append(out, draw.Fit(st.Accent.Render("rc/"+v.name), w),
			draw.Fit(st.Muted.Render("replicationcontroller "+v.name+" not found in namespace "+draw.OrDash(v.namespace)+" — esc goes back"), w))
		return strings.Join(out, "\n")
	}
	u := v.view
	phase := string(u.Phase)
	if u.Rollback {
		phase += " (rolling back)"
	}
	// Without an update there is one controller, neither old nor done
	// with anything: it is simply what runs.
	oldTitle := "old"
	if !u.Updating {
		phase, oldTitle = "no update running", "current"
	}
	// Narrow, the settings go from the last, whole; the name and the
	// phase stay.
	pair := func(label, value string, drop int) draw.Part {
		return draw.Part{Text: "  " + st.Label.Render(label+" ") + st.Text.Render(value), Drop: drop}
	}
	title := []draw.Part{{Text: st.Accent.Render("rc/" + u.Name)}, pair("phase", phase, 0), pair("desired", draw.Itoa(u.Desired), 1)}
	if u.Updating {
		title = append(title, pair("maxSurge", draw.Itoa(u.Limits.MaxSurge), 2), pair("maxUnavailable", draw.Itoa(u.Limits.MaxUnavailable), 3))
		if u.Request != nil {
			title = append(title, pair("update period", time.Duration(u.Request.WithDefaults().UpdatePeriod).String(), 4))
		}
	}
	out = append(out, draw.Parts(title, w))
	half := (w - 2) / 2
	out = append(out, draw.Fit(draw.Bar(st, "surge", u.Surge, st.SurgeBar.Render, half)+"  "+
		draw.Bar(st, "unavailable", u.Unavailable, st.UnavailableBar.Render, w-2-half), w))
	left := v.column(oldTitle, u.Old, half)
	right := v.column("next", u.Next, w-2-half)
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
	if len(u.Events) > 0 {
		out = append(out, draw.Fit(st.Label.Render("progress"), w))
		for _, e := range u.Events {
			line := "  " + e.Time.UTC().Format("15:04:05") + "  " + e.Message
			if e.Warning {
				line = st.Bad.Render(draw.Fit(line, w))
			}
			out = append(out, draw.Fit(line, w))
		}
	}
	if v.dialog != nil {
		// The dialog takes what the controllers leave, and the whole body
		// when that is too little to ask a question in; it scrolls in
		// its room with its keys pinned under it.
		room := h - len(out) - 1
		if room < dialogMin {
			out, room = out[:0], h
		} else {
			out = append(out, "")
		}
		v.dialog.SetSize(w, room)
		out = append(out, strings.Split(v.dialog.View(), "\n")...)
	} else {
		out = append(out, draw.Fit(st.Muted.Render("i new image · x abort · esc back · : another"), w))
	}
	if len(out) > h {
		out = out[:h]
	}
	return strings.Join(out, "\n")
}

// dialogMin is the fewest lines the dialog is drawn in under the
// controllers: its heading, two lines of what it says and its keys.
const dialogMin = 4

// column draws one controller: name, image, sizes, annotations, pods.
func (v *View) column(role string, c cluster.RCRow, w int) []string {
	st := v.s.Styles
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
			b.WriteString(v.s.Paints.Pod[s].On(draw.PodGlyphs[s]))
		}
		out = append(out, draw.Fit(b.String(), w))
	}
	return out
}
