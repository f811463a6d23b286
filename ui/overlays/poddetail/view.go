// Package poddetail is the pod detail view (enter on a pod): what `kubectl
// describe pod` shows — status, node, owner, each container's state and last
// state with exit code and reason, restarts, conditions with their times,
// and the pod's own events — in the console's style, scrollable, and kept
// up to date while it is open.
package poddetail

import (
	"context"
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
	"rollscope/ui/overlays/logs"
	"rollscope/ui/screen"
)

// View is the overlay.
type View struct {
	s               *screen.Screen
	namespace, name string
	w, h            int
	frame           screen.Frame
	detail          cluster.PodDetail
	found           bool
	// unfollow ends the watch of the pod's Normal events, which lasts
	// while the view is open.
	unfollow context.CancelFunc
}

// New opens the detail of one pod, and asks its cluster for the pod's
// Normal events (Scheduled, Pulled, Started…), which the console watches
// only for the pod described; they arrive with the next batches.
func New(s *screen.Screen, namespace, name string) *View {
	v := &View{s: s, namespace: namespace, name: name, unfollow: func() {}}
	if s.PodEvents != nil {
		var ctx context.Context
		ctx, v.unfollow = context.WithCancel(context.Background())
		s.PodEvents.Follow(ctx, namespace, name)
	}
	v.Refresh()
	return v
}

// Refresh reads the pod again (screen.Refresher): the view says what the
// cluster says now.
func (v *View) Refresh() {
	if src, ok := v.s.Src.(screen.PodSource); ok {
		v.detail, v.found = src.Pod(v.namespace, v.name)
	}
}

// SetSize sizes the view to the body.
func (v *View) SetSize(w, h int) { v.w, v.h = w, h; v.frame.SetSize(w, h-1) }

// KeyMap is the view's keys, for the footer.
func (v *View) KeyMap() help.KeyMap { return v.frame.KeyMap(v.keys()) }

func (v *View) keys() help.KeyMap {
	return keys.Hints("esc", "close", v.s.Keys.Action(action.Logs).Help().Key, "logs")
}

// Update scrolls, opens the pod's logs, and closes on esc.
func (v *View) Update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	k := v.s.Keys
	if v.frame.Move(msg, k, false, len(v.lines())) {
		return v, nil
	}
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil
	}
	switch {
	case key.Matches(press, k.Quit):
		return v, tea.Quit
	case key.Matches(press, k.Back):
		v.unfollow()
		return nil, nil
	case k.Bound(action.Logs, press):
		if why := k.DisabledReason(string(action.Logs)); why != "" {
			v.s.Toast = "logs: " + why
			return v, nil
		}
		v.unfollow()
		lv, cmd := logs.Open(v.s, v.namespace, v.name)
		lv.SetSize(v.w, v.h)
		return lv, cmd
	}
	return v, nil
}

// View is the title and the part of the detail the scroll shows.
func (v *View) View() string {
	if v.h <= 0 {
		return ""
	}
	st := v.s.Styles
	title := st.AppTitle.Render(" pod "+v.namespace+"/"+v.name) + st.Muted.Render("  (esc to close, ↑/↓ to scroll, l for logs)")
	if v.h == 1 {
		return draw.Fit(title, v.w)
	}
	// The title stays; the detail scrolls under it, the keys under that.
	return draw.Fit(title, v.w) + "\n" + v.frame.Draw(v.s, v.lines(), v.keys(), v.w, v.h-1)
}

// lines is the whole detail, as describe orders it.
func (v *View) lines() []string {
	st := v.s.Styles
	if !v.found {
		return []string{st.Muted.Render(" the pod is not in the picture (deleted, or not watched yet)")}
	}
	d, now := v.detail, v.s.Now
	field := func(name, value string) string {
		return " " + st.Label.Render(draw.Fit(name+":", 15)) + st.Text.Render(value)
	}
	status := d.Status
	if !d.Deleting.IsZero() {
		status += fmt.Sprintf(" (deleted %s ago, grace %ds)", draw.Age(now, d.Deleting), d.Grace)
	}
	if d.Reason != "" {
		status += " · " + d.Reason
	}
	out := []string{
		field("Status", status),
		field("Node", orNone(d.Node)),
		field("Controlled By", orNone(d.Owner)),
		field("Created", stamp(now, d.Created)),
		field("Started", stamp(now, d.Started)),
		field("IP", orNone(d.IP)),
	}
	if d.QoS != "" {
		out = append(out, field("QoS Class", d.QoS))
	}
	if d.Message != "" {
		out = append(out, field("Message", d.Message))
	}
	if len(d.Labels) > 0 {
		out = append(out, field("Labels", strings.Join(d.Labels, " ")))
	}
	out = append(out, "", " "+st.Accent.Render("Containers"))
	for _, c := range d.Containers {
		name := c.Name
		if c.Init {
			name += " (init)"
		}
		out = append(out, "  "+st.Text.Render(name)+"  "+st.Muted.Render(c.Image))
		out = append(out, "    "+st.Label.Render(draw.Fit("State:", 12))+v.state(c.State))
		if msg := c.State.Message; msg != "" {
			out = append(out, "    "+draw.Fit("", 12)+st.Muted.Render(msg))
		}
		if c.LastState.Kind != "" {
			out = append(out, "    "+st.Label.Render(draw.Fit("Last State:", 12))+v.state(c.LastState))
		}
		out = append(out, "    "+st.Label.Render(draw.Fit("Ready:", 12))+st.Text.Render(fmt.Sprint(c.Ready))+
			"   "+st.Label.Render("Restart Count:")+" "+st.Text.Render(draw.Itoa(c.Restarts)))
	}
	out = append(out, "", " "+st.Accent.Render("Conditions"))
	for _, c := range d.Conditions {
		line := "  " + draw.Fit(c.Type, 26) + draw.Fit(c.Status, 8) + draw.Fit(draw.Age(now, c.Since), 6)
		if c.Reason != "" {
			line += " " + c.Reason
		}
		if c.Message != "" {
			line += ": " + c.Message
		}
		out = append(out, st.Text.Render(line))
	}
	out = append(out, "", " "+st.Accent.Render("Events"))
	if len(d.Events) == 0 {
		out = append(out, "  "+st.Muted.Render("<none>"))
	}
	// The ages as describe words them. Each column is as wide as its
	// widest cell, as describe's are: a back-off counted for days ("3m
	// (x4321 over 14d)") is never cut to a false "14…", nor a reason
	// (FailedCreatePodSandBox) to a word it is not.
	ages := make([]string, len(d.Events))
	reasonW, ageW, fromW := 18, 18, 18
	for i, e := range d.Events {
		ages[i] = draw.Age(now, e.Last)
		if e.Count > 1 {
			ages[i] += fmt.Sprintf(" (x%d over %s)", e.Count, draw.Age(now, e.First))
		}
		reasonW, ageW, fromW = max(reasonW, draw.WidthOf(e.Reason)), max(ageW, len(ages[i])), max(fromW, draw.WidthOf(e.From))
	}
	for i, e := range d.Events {
		line := "  " + draw.Fit(e.Type, 8) + " " + draw.Fit(e.Reason, reasonW) + " " + draw.Fit(ages[i], ageW) + " " + draw.Fit(e.From, fromW) + " " + e.Message
		if e.Type == "Warning" {
			out = append(out, st.Warn.Render(line))
		} else {
			out = append(out, st.Text.Render(line))
		}
	}
	return out
}

// state is a container state as describe words it.
func (v *View) state(s cluster.ContainerStateRow) string {
	st := v.s.Styles
	now := v.s.Now
	switch s.Kind {
	case "Running":
		return st.OK.Render("Running") + st.Muted.Render("  started "+stamp(now, s.Started))
	case "Terminated":
		out := st.Bad.Render("Terminated")
		if s.Reason != "" {
			out += " " + st.Text.Render(s.Reason)
		}
		out += st.Text.Render(fmt.Sprintf("  exit code %d", s.ExitCode))
		if !s.Finished.IsZero() {
			out += st.Muted.Render("  finished " + stamp(now, s.Finished))
		}
		return out
	}
	return st.Warn.Render("Waiting") + " " + st.Text.Render(s.Reason)
}

// stamp is a time on the cluster's clock with its age: "14:02:11 (3m ago)".
func stamp(now, t time.Time) string {
	if t.IsZero() {
		return "<none>"
	}
	return t.Format("15:04:05") + " (" + draw.Age(now, t) + " ago)"
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
