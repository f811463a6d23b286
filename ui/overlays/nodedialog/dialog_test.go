package nodedialog

import (
	"strings"
	"testing"

	"rollscope/model/action"
	"rollscope/ui/internal/uitest"
)

// cordon names the nodes and waits for y; y sends one request for them
// all, esc nothing.
func TestCordonConfirmsThenSends(t *testing.T) {
	acts := &uitest.Actions{Result: "ok"}
	s := uitest.NewScreen(uitest.MidRollout(), acts)
	o, _ := Confirm(s, action.Cordon, []string{"node-0", "node-1"})
	o.SetSize(80, 12)
	if out := uitest.Plain(o.View()); !strings.Contains(out, "node-0") || !strings.Contains(out, "node-1") || !strings.Contains(out, "cordon") {
		t.Errorf("confirmation:\n%s", out)
	}
	if uitest.Answer(o, "esc") != nil || len(acts.Sent) != 0 {
		t.Errorf("esc sent %v", acts.Sent)
	}
	o, _ = Confirm(s, action.Cordon, []string{"node-0", "node-1"})
	if uitest.Answer(o, "y") != nil || len(acts.Sent) != 1 || strings.Join(acts.Sent[0].Nodes, ",") != "node-0,node-1" {
		t.Errorf("y sent %+v", acts.Sent)
	}
}

// The drain form starts from kubectl's defaults with DaemonSet pods
// skipped, shows the preview of what it would evict, and lets space toggle
// an option.
func TestDrainForm(t *testing.T) {
	acts := &uitest.Actions{Drain: action.DrainPreview{}}
	s := uitest.NewScreen(uitest.MidRollout(), acts)
	o, cmd := Drain(s, []string{"node-1"})
	for _, msg := range uitest.Run(cmd) {
		o, _ = o.Update(msg)
	}
	o.SetSize(100, 20)
	out := uitest.Plain(o.View())
	for _, want := range []string{"node-1", "ignore DaemonSets", "delete emptyDir data", "grace period", "timeout"} {
		if !strings.Contains(out, want) {
			t.Errorf("drain form lacks %q:\n%s", want, out)
		}
	}
	if uitest.Answer(o, "esc") != nil || len(acts.Sent) != 0 {
		t.Errorf("esc from the drain form: sent %v", acts.Sent)
	}
}

// A roll's form takes its settings; enter asks the node-roll controller's
// plan and shows it before y sends the roll.
func TestRollShowsThePlan(t *testing.T) {
	acts := &uitest.Actions{Plan: "replaces 2 nodes, 1 at a time"}
	s := uitest.NewScreen(uitest.MidRollout(), acts)
	o, cmd := Roll(s, "pool-a", 2, 1)
	for _, msg := range uitest.Run(cmd) {
		o, _ = o.Update(msg)
	}
	o.SetSize(100, 20)
	if out := uitest.Plain(o.View()); !strings.Contains(out, "1 of 2 nodes outdated") || !strings.Contains(out, "maxSurge") {
		t.Errorf("roll form:\n%s", out)
	}
	// enter takes the form to the confirmation, with the plan.
	o = uitest.Answer(o, "enter")
	if out := uitest.Plain(o.View()); !strings.Contains(out, "replaces 2 nodes, 1 at a time") {
		t.Errorf("roll confirmation lacks the plan:\n%s", out)
	}
	if uitest.Answer(o, "y") != nil || len(acts.Sent) != 1 || acts.Sent[0].Action != action.RollGroup || acts.Sent[0].Name != "pool-a" {
		t.Errorf("y sent %+v", acts.Sent)
	}
	if size, outdated := GroupSize(s.Nodes, "pool-a"); size != 2 || outdated != 1 {
		t.Errorf("pool-a: %d nodes, %d outdated", size, outdated)
	}
}
