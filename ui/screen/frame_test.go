package screen_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/overlays/canarydialog"
	"rollscope/ui/overlays/help"
	"rollscope/ui/overlays/logs"
	"rollscope/ui/overlays/nodedialog"
	"rollscope/ui/overlays/picker"
	"rollscope/ui/overlays/poddetail"
	"rollscope/ui/overlays/rolloutdialog"
	"rollscope/ui/pages/rc"
	"rollscope/ui/screen"
)

// longActions answer with more than a small terminal holds: a long undo
// diff, a drain of many pods, an RC plan.
type longActions struct{ uitest.Actions }

func (a *longActions) UndoPreview(context.Context, string, string, int64) ([]cluster.DiffLine, error) {
	var out []cluster.DiffLine
	for i := range 30 {
		out = append(out, cluster.DiffLine{Op: '+', Text: fmt.Sprintf("env LINE_%02d=value", i)})
	}
	return out, nil
}

// longLog is a container's log of 80 lines.
type longLog struct{}

func (longLog) Open(context.Context, model.LogRequest) (io.ReadCloser, error) {
	var b strings.Builder
	for i := range 80 {
		fmt.Fprintf(&b, "log line %02d\n", i)
	}
	return io.NopCloser(strings.NewReader(b.String())), nil
}

// dialog is a view under test: how it is drawn, sized and given keys.
type dialog struct {
	view  func() string
	size  func(w, h int)
	press func(tea.Msg)
}

func overlay(o screen.Overlay, cmd tea.Cmd) *dialog {
	d := &dialog{}
	d.view = func() string { return o.View() }
	d.size = func(w, h int) { o.SetSize(w, h) }
	d.press = func(msg tea.Msg) {
		next, cmd := o.Update(msg)
		if next != nil {
			o = next
		}
		feed(d, cmd)
	}
	feed(d, cmd)
	return d
}

// feed hands the dialog what cmd brings, as Bubble Tea would.
func feed(d *dialog, cmd tea.Cmd) {
	for _, m := range uitest.Run(cmd) {
		d.press(m)
	}
}

func keys(d *dialog, ks ...string) {
	for _, k := range ks {
		d.press(uitest.Press(k))
	}
}

func longScreen() (*screen.Screen, *longActions) {
	src := uitest.MidRollout()
	for i := range 40 {
		src.Summaries = append(src.Summaries, cluster.DeploymentSummary{Namespace: "shop", Name: fmt.Sprintf("svc-%02d", i), Replicas: 2})
	}
	var events []cluster.EventRow
	for i := range 30 {
		events = append(events, cluster.EventRow{Type: "Normal", Reason: "Pulled", From: "kubelet", Message: fmt.Sprintf("event %02d", i), Count: 1, First: uitest.T0, Last: uitest.T0})
	}
	src.PodDetails = map[string]cluster.PodDetail{"shop/frontend-new-00001": {Namespace: "shop", Name: "frontend-new-00001", Status: "Running",
		Containers: []cluster.ContainerDetail{{Name: "nginx", Image: "nginx:1.28"}}, Events: events}}
	src.RCs = map[string]cluster.RCUpdateView{"shop/web": {Namespace: "shop", Name: "web", Phase: model.RCPhaseDone, Desired: 4,
		Old: cluster.RCRow{Name: "web", Images: []string{"nginx:1.25"}, Desired: 4, Current: 4, Ready: 4, Available: 4}}}
	acts := &longActions{}
	acts.Images = []action.Container{{Name: "nginx", Image: "nginx:1.28"}}
	acts.ForecastText = "4 scaling steps, new pods ready in 2 waves, at most 13 pods, never fewer than 8 available, about 22s"
	var evict []string
	for i := range 40 {
		evict = append(evict, fmt.Sprintf("shop/frontend-7b7d5974f6-%05d", i))
	}
	acts.Drain = action.DrainPreview{Evict: evict}
	acts.RCPlan = action.RCPlan{Request: model.RCUpdateRequest{Old: "web", Image: "nginx:1.27"}, Next: "web-7d9c", Rename: true, Container: "nginx",
		FromImage: "nginx:1.25", Replicas: 4, Limits: model.RCLimits{MaxSurge: 1, MinAvailable: 4}, UpdatePeriod: time.Minute}
	s := uitest.NewScreen(src, acts)
	s.Logs = longLog{}
	return s, acts
}

// Every overlay, and the RC page's dialog, at the body an 80×24 and a
// 60×20 terminal leave under the rollout header: the action line is the
// last line drawn, whatever is scrolled, and every line the dialog has is
// reached by scrolling (Home, then PgDn).
func TestEveryDialogScrollsUnderItsActionLine(t *testing.T) {
	cases := []struct {
		name   string
		open   func(s *screen.Screen) *dialog
		action string // on the last line
		from   string // the dialog's first line, when it is drawn under more
	}{
		{name: "undo confirmation", action: "y send · n/esc cancel", open: func(s *screen.Screen) *dialog {
			d := overlay(rolloutdialog.Open(s, action.Undo))
			keys(d, "enter")
			return d
		}},
		{name: "guided canary confirmation", action: "y send · n/esc cancel", open: func(s *screen.Screen) *dialog {
			// A finished rollout of 10, where 1, 25%, 50% are three steps.
			s.Rollout.Replicas, s.Rollout.Done = 10, true
			d := overlay(canarydialog.AsCanary(s, action.Request{Action: action.SetImage, Namespace: "shop", Name: "frontend", Container: "nginx", Image: "nginx:1.29"}))
			keys(d, "enter", "enter", "enter", "enter")
			return d
		}},
		{name: "drain preview", action: "enter next", open: func(s *screen.Screen) *dialog {
			return overlay(nodedialog.Drain(s, []string{"node-1"}))
		}},
		{name: "RC rolling update", action: "y send · n/esc cancel", from: "Rolling update of rc/web", open: func(s *screen.Screen) *dialog {
			v := rc.New(s, "shop", "web")
			d := &dialog{view: v.View, size: v.SetSize}
			d.press = func(msg tea.Msg) {
				_, cmd := v.Update(msg)
				feed(d, cmd)
			}
			keys(d, "i")
			for _, r := range "nginx:1.27" {
				keys(d, string(r))
			}
			keys(d, "enter")
			return d
		}},
		{name: "picker", action: "enter show · esc cancel", open: func(s *screen.Screen) *dialog {
			return overlay(picker.New(s, '/'), nil)
		}},
		{name: "help", action: "esc", open: func(s *screen.Screen) *dialog {
			return overlay(help.New(s), nil)
		}},
		{name: "pod detail", action: "esc close", open: func(s *screen.Screen) *dialog {
			return overlay(poddetail.New(s, "shop", "frontend-new-00001"), nil)
		}},
		{name: "logs", action: "esc close", open: func(s *screen.Screen) *dialog {
			return overlay(logs.Open(s, "shop", "frontend-new-00001"))
		}},
	}
	// Each case must have more to say than fits at one size at least.
	overflowed := map[string]bool{}
	defer func() {
		for _, c := range cases {
			if !overflowed[c.name] {
				t.Errorf("%s fits at every size: nothing was scrolled", c.name)
			}
		}
	}()
	for _, body := range []struct{ w, h int }{{80, 24 - 6}, {60, 20 - 6}} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s %dx%d", c.name, body.w, body.h+6), func(t *testing.T) {
				s, _ := longScreen()
				d := c.open(s)
				// Everything it has to say, drawn where it all fits.
				d.size(body.w, 400)
				all := said(d.view(), c.from)
				d.size(body.w, body.h)
				keys(d, "home")
				first := map[string]bool{}
				for _, l := range uitest.Lines(d.view()) {
					first[norm(l)] = true
				}
				for _, l := range all {
					if !first[l] {
						overflowed[c.name] = true
					}
				}
				seen := map[string]bool{}
				last := ""
				for range 100 {
					view := d.view()
					lines := uitest.Lines(view)
					if len(lines) > body.h {
						t.Fatalf("%d lines drawn in a body of %d", len(lines), body.h)
					}
					if bottom := lines[len(lines)-1]; !strings.Contains(bottom, c.action) {
						t.Fatalf("the last line is %q, want the action line with %q:\n%s", bottom, c.action, uitest.Plain(view))
					}
					for _, l := range lines {
						seen[norm(l)] = true
					}
					if view == last {
						break
					}
					last = view
					keys(d, "pgdown")
				}
				for _, l := range all {
					if !seen[l] {
						t.Errorf("%q cannot be scrolled to", l)
					}
				}
			})
		}
	}
}

// said is what a view says, from its line holding from: every line but
// the blank ones and the last (the action line, which says where the view
// is), without the cursor's marker.
func said(view, from string) []string {
	lines := uitest.Lines(view)
	lines = lines[:len(lines)-1]
	var out []string
	on := from == ""
	for _, l := range lines {
		on = on || strings.Contains(l, from)
		if n := norm(l); on && n != "" {
			out = append(out, n)
		}
	}
	return out
}

func norm(l string) string {
	return strings.TrimRight(strings.ReplaceAll(uitest.Plain(l), "▸", " "), " ")
}
