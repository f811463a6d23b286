package rcdialog

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

func midUpdate() cluster.RCUpdateView {
	return cluster.RCUpdateView{Namespace: "shop", Name: "web", Updating: true, Phase: model.RCPhaseRollout, Desired: 4,
		Old:  cluster.RCRow{Name: "web", Images: []string{"nginx:1.25"}, Desired: 2, Current: 2, Ready: 2},
		Next: cluster.RCRow{Name: "web-next", Images: []string{"nginx:1.27"}, Desired: 3, Current: 3, Ready: 2}}
}

func newScreen(acts *uitest.Actions) *screen.Screen {
	src := uitest.MidRollout()
	src.RCs = map[string]cluster.RCUpdateView{"shop/web": midUpdate()}
	return uitest.NewScreen(src, acts)
}

// The update form starts from kubectl rolling-update's defaults, takes the
// image typed, and esc cancels without sending.
func TestUpdateForm(t *testing.T) {
	acts := &uitest.Actions{}
	d := Update(newScreen(acts), "shop", "web")
	d.SetSize(80, 12)
	out := uitest.Plain(d.View())
	for _, want := range []string{"image", "maxSurge", "maxUnavailable", "update period", "1m"} {
		if !strings.Contains(out, want) {
			t.Errorf("form lacks %q:\n%s", want, out)
		}
	}
	for _, r := range "nginx:1.29" {
		d, _ = d.Update(uitest.Press(string(r)))
	}
	if out := uitest.Plain(d.View()); !strings.Contains(out, "nginx:1.29") {
		t.Errorf("typed image not shown:\n%s", out)
	}
	if d, _ = d.Update(uitest.Press("esc")); d != nil || len(acts.Sent) != 0 {
		t.Errorf("esc: open %v, sent %v", d != nil, acts.Sent)
	}
}

// Abort says what rolling back will do and sends on y; without an update
// there is nothing to abort, and the refusal says what to do instead.
func TestAbort(t *testing.T) {
	acts := &uitest.Actions{Result: "ok"}
	s := newScreen(acts)
	d, _ := Abort(s, "shop", "web", midUpdate())
	d.SetSize(80, 12)
	if out := uitest.Plain(d.View()); !strings.Contains(out, "web grows back to 4 replicas (nginx:1.25), web-next shrinks to 0 and is") {
		t.Errorf("abort confirmation:\n%s", out)
	}
	var cmd tea.Cmd
	if d, cmd = d.Update(uitest.Press("y")); d != nil {
		t.Error("y did not close the dialog")
	}
	uitest.Run(cmd)
	if len(acts.Sent) != 1 || acts.Sent[0].Name != "web" {
		t.Errorf("y sent %+v", acts.Sent)
	}
	settled := midUpdate()
	settled.Updating, settled.Next = false, cluster.RCRow{}
	if why := AbortRefusal(settled); why == "" {
		t.Error("abort of a controller with no update is not refused")
	}
	if why := AbortRefusal(midUpdate()); why != "" {
		t.Errorf("abort of a running update refused: %s", why)
	}
}
