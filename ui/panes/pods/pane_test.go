package pods

import (
	"strings"
	"testing"

	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// The pane lists the selected ReplicaSet's pods; enter opens a pod's
// detail and l its logs (when there is something to read them from).
func TestListsTheSelectedReplicaSetsPods(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), nil)
	p := New(s)
	uitest.Focused(p, 90, 6)
	lines := uitest.Lines(p.View())
	if !strings.Contains(lines[0], "NAME") || !strings.Contains(lines[1], "frontend-new-00000") || !strings.Contains(lines[2], "0/1") {
		t.Fatalf("pods of the new ReplicaSet:\n%s", strings.Join(lines, "\n"))
	}
	s.SelectedRS = "frontend-old"
	p.Update(screen.Refreshed{})
	if out := uitest.Plain(p.View()); !strings.Contains(out, "frontend-old-00002") || strings.Contains(out, "frontend-new") {
		t.Errorf("pods of the old ReplicaSet:\n%s", out)
	}
	uitest.Keys[screen.Pane](p, "down")
	cmd := uitest.Keys[screen.Pane](p, "enter")
	if cmd == nil {
		t.Fatal("enter opened nothing")
	}
	if o, ok := cmd().(screen.Open); !ok || o.Overlay == nil {
		t.Fatalf("enter: %T", cmd())
	} else if o.Overlay.SetSize(90, 20); !strings.Contains(uitest.Plain(o.Overlay.View()), "frontend-old-00001") {
		t.Errorf("detail is not the selected pod's:\n%s", uitest.Plain(o.Overlay.View()))
	}
	if cmd := uitest.Keys[screen.Pane](p, "x"); cmd != nil {
		t.Error("a key that is not the pane's opened something")
	}
}

// Before the first list has ended the pane says the pods are being listed,
// and how many have come, never that there are none (k9s #4006).
func TestNoPodsYetIsNotNoPods(t *testing.T) {
	src := uitest.MidRollout()
	view := src.Rollouts["shop/frontend"]
	for i := range view.ReplicaSets {
		view.ReplicaSets[i].Pods = nil
	}
	src.Rollouts["shop/frontend"] = view
	src.Status = cluster.WatchStatus{Connected: true, Listing: "Pod", ListedSoFar: 12000}
	s := uitest.NewScreen(src, nil)
	p := New(s)
	uitest.Focused(p, 90, 6)
	out := uitest.Plain(p.View())
	if strings.Contains(out, "no pods") || !strings.Contains(out, "listing pods… 12,000 so far") {
		t.Errorf("while the pods are listed the pane shows:\n%s", out)
	}
	// A console that watched only some namespaces' pods (the fleet of
	// every namespace) and has yet to list shop's.
	src.Status = cluster.WatchStatus{Synced: true, Connected: true, PodsNarrowed: true, PodNamespaces: "billing"}
	s.Read()
	p.Update(screen.Refreshed{})
	if out := uitest.Plain(p.View()); strings.Contains(out, "no pods") || !strings.Contains(out, "listing pods") {
		t.Errorf("while shop's pods are yet to be listed the pane shows:\n%s", out)
	}
	src.Status = cluster.WatchStatus{Synced: true, Connected: true}
	s.Read()
	p.Update(screen.Refreshed{})
	if out := uitest.Plain(p.View()); !strings.Contains(out, "no pods") {
		t.Errorf("once listed, a ReplicaSet without pods shows:\n%s", out)
	}
}
