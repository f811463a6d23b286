package canarydialog

import (
	"strings"
	"testing"

	"rollscope/model/action"
	"rollscope/ui/internal/uitest"
)

// Promoting a Deployment that runs no canary says how to start one.
func TestPromoteWithoutACanary(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), &uitest.Actions{})
	if o, _ := Open(s, action.Promote); o != nil || !strings.Contains(s.Toast, "runs no canary — K starts one") {
		t.Errorf("promote without a canary: dialog %v, toast %q", o != nil, s.Toast)
	}
}

// A canary starts by reading the containers, then asks which one and what
// change to roll, step by step; esc leaves it without sending.
func TestCanaryAsksStepByStep(t *testing.T) {
	src := uitest.MidRollout()
	done := src.Rollouts["shop/frontend"]
	done.Done, done.ReplicaSets = true, done.ReplicaSets[:1]
	done.Status = `deployment "frontend" successfully rolled out`
	src.Rollouts["shop/frontend"] = done
	acts := &uitest.Actions{Images: []action.Container{{Name: "nginx", Image: "nginx:1.28"}, {Name: "sidecar", Image: "envoy:1.30"}}}
	s := uitest.NewScreen(src, acts)
	o, cmd := Open(s, action.Canary)
	if o == nil {
		t.Fatalf("K opened nothing: %q", s.Toast)
	}
	o.SetSize(80, 14)
	if out := uitest.Plain(o.View()); !strings.Contains(out, "reading the containers of deployment/frontend") {
		t.Errorf("before the containers arrive:\n%s", out)
	}
	for _, msg := range uitest.Run(cmd) {
		o, _ = o.Update(msg)
	}
	if out := uitest.Plain(o.View()); !strings.Contains(out, "which container?") || !strings.Contains(out, "sidecar") {
		t.Errorf("container choice:\n%s", out)
	}
	if w, ok := o.(interface{ Writes() bool }); !ok || !w.Writes() {
		t.Error("the canary dialog does not say it writes")
	}
	if next := uitest.Answer(o, "esc"); next != nil || len(acts.Sent) != 0 {
		t.Errorf("esc: open %v, sent %v", next != nil, acts.Sent)
	}
}
