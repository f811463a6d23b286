package rc

import (
	"strings"
	"testing"
	"time"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// midUpdate is web halfway from nginx:1.25 to nginx:1.27.
func midUpdate() cluster.RCUpdateView {
	return cluster.RCUpdateView{
		Namespace: "shop", Name: "web", Updating: true, Phase: model.RCPhaseRollout, Desired: 4, Original: 4,
		Limits: model.RCLimits{Desired: 4, MaxSurge: 1, MinAvailable: 4},
		Old: cluster.RCRow{Name: "web", Images: []string{"nginx:1.25"}, Desired: 2, Current: 2, Ready: 2,
			Annotations: []string{"next-controller-id=web-next"}, Pods: uitest.Pods("web", cluster.PodReady, cluster.PodReady)},
		Next: cluster.RCRow{Name: "web-next", Images: []string{"nginx:1.27"}, Desired: 3, Current: 3, Ready: 2,
			Pods: uitest.Pods("web-next", cluster.PodReady, cluster.PodReady, cluster.PodNotReady)},
		Surge:  model.Headroom{Used: 5, Limit: 5},
		Events: []cluster.TimelineEntry{{Time: uitest.T0.Add(-time.Minute), Message: "Scaling web-next up to 3"}},
	}
}

func newRC(t *testing.T, view cluster.RCUpdateView, acts screen.Actions) (screen.Page, *uitest.Base, *screen.Screen) {
	t.Helper()
	src := uitest.MidRollout()
	src.RCs = map[string]cluster.RCUpdateView{"shop/web": view}
	s := uitest.NewScreen(src, acts)
	b := &uitest.Base{}
	p := NewPage(s, b, "shop", "web")
	p.SetSize(80, 18)
	return p, b, s
}

// The page shows both controllers side by side, the phase and limits, the
// progress lines and its keys; the title is the rollout page's under it,
// the footer offers only keys that act on this page.
func TestShowsBothControllers(t *testing.T) {
	p, _, _ := newRC(t, midUpdate(), nil)
	out := uitest.Plain(p.View())
	for _, want := range []string{"rc/web  phase rollout  desired 4  maxSurge 1", "old web", "next web-next",
		"nginx:1.25", "nginx:1.27", "desired/current/ready 3/3/2", "next-controller-id=web-next",
		"progress", "09:29:00  Scaling web-next up to 3", "i new image · x abort · esc back"} {
		if !strings.Contains(out, want) {
			t.Errorf("RC page lacks %q:\n%s", want, out)
		}
	}
	if h := p.Header(80, ""); len(h) != 1 || h[0] != "deploy frontend" || p.HeaderHeight(80) != 1 {
		t.Errorf("header %q is not the page's below", h)
	}
	if p.Title() != "rollscope shop/frontend" {
		t.Error("title is not the page's below")
	}
	var footer []string
	for _, b := range p.KeyMap().ShortHelp() {
		footer = append(footer, b.Help().Key)
	}
	if got := strings.Join(footer, " "); !strings.HasPrefix(got, "i x esc") || strings.Contains(got, "tab") {
		t.Errorf("footer offers %q, want the page's own keys first and no tab", got)
	}
}

// Its own keys are i, x and esc; the others keep their meaning on the
// page under it.
func TestKeysItDoesNotTakeGoToThePageBelow(t *testing.T) {
	p, b, s := newRC(t, midUpdate(), &uitest.Actions{})
	p.Update(uitest.Press("tab"))
	p.Update(uitest.Press("j"))
	if strings.Join(b.Keys, " ") != "tab j" {
		t.Errorf("the page below got %q", b.Keys)
	}
	// i while an update runs says what to do instead.
	p.Update(uitest.Press("i"))
	if !strings.Contains(s.Toast, "already being updated") || p.Typing() {
		t.Errorf("i during an update: toast %q, typing %v", s.Toast, p.Typing())
	}
	if next, _ := p.Update(uitest.Press("esc")); next != nil {
		t.Error("esc did not close the page")
	}
}

// i on a settled controller opens the update dialog, which takes every key
// and writes: the clock is held meanwhile.
func TestIOpensTheUpdateDialog(t *testing.T) {
	settled := midUpdate()
	settled.Updating, settled.Next = false, cluster.RCRow{}
	p, b, _ := newRC(t, settled, &uitest.Actions{})
	if out := uitest.Plain(p.View()); !strings.Contains(out, "phase no update running") || !strings.Contains(out, "current web") {
		t.Errorf("settled controller:\n%s", out)
	}
	p.Update(uitest.Press("i"))
	if !p.Typing() || !p.Writes() {
		t.Fatalf("i opened no dialog: typing %v writes %v", p.Typing(), p.Writes())
	}
	p.Update(uitest.Press("tab"))
	if len(b.Keys) != 0 {
		t.Errorf("a key reached the page below while the dialog was open: %q", b.Keys)
	}
	p.Update(uitest.Press("esc"))
	if p.Typing() {
		t.Error("esc did not close the dialog")
	}
}

// Read-only, i and x say why rather than falling through to the
// Deployment's set image and abort.
func TestDisabledKeysSayWhy(t *testing.T) {
	p, b, s := newRC(t, midUpdate(), nil)
	p.Update(uitest.Press("x"))
	if len(b.Keys) != 0 || !strings.Contains(s.Toast, "no cluster") {
		t.Errorf("x without a cluster: below got %q, toast %q", b.Keys, s.Toast)
	}
}

// An unknown controller says so.
func TestUnknownController(t *testing.T) {
	src := uitest.MidRollout()
	s := uitest.NewScreen(src, nil)
	p := NewPage(s, &uitest.Base{}, "shop", "nope")
	p.SetSize(80, 10)
	if out := uitest.Plain(p.View()); !strings.Contains(out, "replicationcontroller nope not found in namespace shop — esc goes back") {
		t.Errorf("unknown controller:\n%s", out)
	}
}

// Every key the footer offers acts on this page: none of them falls
// through to the Deployment's page under it (the console's own keys —
// help, the command line, quit — are the root's, on every page).
func TestFooterOffersOnlyThisPagesKeys(t *testing.T) {
	p, _, s := newRC(t, midUpdate(), &uitest.Actions{})
	for _, b := range p.KeyMap().ShortHelp() {
		if b.Help() == s.Keys.Help.Help() || b.Help() == s.Keys.Command.Help() || b.Help() == s.Keys.Quit.Help() {
			continue
		}
		fresh, base, _ := newRC(t, midUpdate(), &uitest.Actions{})
		fresh.Update(uitest.Press(b.Keys()[0]))
		if len(base.Keys) > 0 {
			t.Errorf("the footer offers %q, which goes to the page under it", b.Help().Key)
		}
	}
}
