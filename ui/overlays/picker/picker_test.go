package picker

import (
	"strings"
	"testing"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

func shop() *uitest.Source {
	src := uitest.MidRollout()
	src.Summaries = []cluster.DeploymentSummary{
		{Namespace: "shop", Name: "checkout", Replicas: 2, Updated: 2, Available: 2, Done: true},
		{Namespace: "shop", Name: "checkout-v2", Replicas: 1, Updated: 1, Available: 1, Done: true},
		{Namespace: "shop", Name: "frontend", Replicas: 4, Updated: 2, Available: 4},
	}
	return src
}

func typeIn(o screen.Overlay, text string) screen.Overlay {
	for _, r := range text {
		if o == nil {
			return nil
		}
		o, _ = o.Update(uitest.Press(string(r)))
	}
	return o
}

// The picker lists the namespace's deployments, the one shown under the
// cursor; typing narrows them, enter goes to the pick and closes.
func TestTypingNarrowsAndEnterGoes(t *testing.T) {
	s := uitest.NewScreen(shop(), nil)
	var o screen.Overlay = New(s, ':')
	o.SetSize(80, 10)
	out := uitest.Plain(o.View())
	for _, want := range []string{"checkout", "checkout-v2", "frontend"} {
		if !strings.Contains(out, want) {
			t.Errorf("picker lacks %s:\n%s", want, out)
		}
	}
	o = typeIn(o, "check")
	if out := uitest.Plain(o.View()); strings.Contains(out, "frontend") {
		t.Errorf("check still lists frontend:\n%s", out)
	}
	// An exact name wins over the first match.
	o = typeIn(o, "out-v2")
	if next, _ := o.Update(uitest.Press("enter")); next != nil {
		t.Error("enter did not close the picker")
	}
	if got, ok := s.Next(); !ok || got.Deployment != "checkout-v2" || got.Namespace != "shop" {
		t.Errorf("enter goes to %+v", got)
	}
}

// : also reaches the other kinds and the scope; esc goes nowhere.
func TestCommandLineTargets(t *testing.T) {
	for _, tc := range []struct {
		typed string
		want  screen.Target
	}{
		{"rc web", screen.Target{Namespace: "shop", RC: "web"}},
		{"sts db", screen.Target{Namespace: "shop", Workload: "db", WorkloadKind: action.OnStatefulSet}},
		{"ds agent", screen.Target{Namespace: "shop", Workload: "agent", WorkloadKind: action.OnDaemonSet}},
	} {
		s := uitest.NewScreen(shop(), nil)
		o := typeIn(New(s, ':'), tc.typed)
		o.Update(uitest.Press("enter"))
		if got, _ := s.Next(); got != tc.want {
			t.Errorf(":%s goes to %+v, want %+v", tc.typed, got, tc.want)
		}
	}
	s := uitest.NewScreen(shop(), nil)
	o := typeIn(New(s, ':'), "ns billing")
	o.Update(uitest.Press("enter"))
	if got, _ := s.Next(); got.Scope == nil || got.Scope.Namespace != "billing" {
		t.Errorf(":ns billing goes to %+v", got)
	}
	s = uitest.NewScreen(shop(), nil)
	o = typeIn(New(s, '/'), "front")
	if next, _ := o.Update(uitest.Press("esc")); next != nil {
		t.Error("esc did not close the picker")
	}
	if _, ok := s.Next(); ok {
		t.Error("esc went somewhere")
	}
}
