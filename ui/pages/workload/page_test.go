package workload

import (
	"slices"
	"strings"
	"testing"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// midRollout holds db, a StatefulSet half way through a partitioned update
// (ordinals 3 and 4 updated, 3 not ready), and agent, a DaemonSet surging
// on one node.
func midRollout() *uitest.Source {
	src := uitest.MidRollout()
	var cells []cluster.OrdinalCell
	for ord := range 5 {
		cells = append(cells, cluster.OrdinalCell{Ordinal: ord, Pod: model.StatefulPodName("db", ord), Exists: true,
			State: cluster.PodReady, BelowPartition: ord < 3, Updated: ord >= 3})
	}
	cells[3].State = cluster.PodNotReady
	src.Sets = map[string]cluster.StatefulSetView{"shop/db": {
		Namespace: "shop", Name: "db", Replicas: 5, Policy: "OrderedReady", Strategy: "RollingUpdate", Partition: 3,
		MaxUnavailable: 1, CurrentRevision: "db-1", UpdateRevision: "db-2", Ready: 4, Available: 4, Current: 3, Updated: 2,
		Containers: []string{"db=postgres:15.5"}, Unavailable: model.Headroom{Used: 1, Limit: 1}, Ordinals: cells,
		Status: "Waiting for 1 pods to be ready...",
		History: []cluster.WorkloadRevision{
			{Revision: 1, Name: "db-1", Images: []string{"db=postgres:15.4"},
				Diff: []cluster.DiffLine{{Op: '-', Text: "  image: postgres:15.5"}, {Op: '+', Text: "  image: postgres:15.4"}}},
			{Revision: 2, Name: "db-2", Images: []string{"db=postgres:15.5"}, Current: true},
		},
	}}
	src.Daemons = map[string]cluster.DaemonSetView{"shop/agent": {
		Namespace: "shop", Name: "agent", Strategy: "RollingUpdate", MaxSurge: 1, Desired: 3, Current: 3, Ready: 3,
		Updated: 1, Available: 3, Containers: []string{"agent=agent:2"}, Surge: model.Headroom{Used: 1, Limit: 1},
		Nodes: []cluster.DaemonNodeRow{
			{Node: "node-0", State: cluster.DaemonUpdated, Pods: []cluster.PodRow{{State: cluster.PodReady}}},
			{Node: "node-1", State: cluster.DaemonSurging, Pods: []cluster.PodRow{{State: cluster.PodReady}, {State: cluster.PodNotReady}}},
			{Node: "node-2", State: cluster.DaemonOld, Pods: []cluster.PodRow{{State: cluster.PodReady}}},
		},
		Status: `Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...`,
		History: []cluster.WorkloadRevision{
			{Revision: 1, Name: "agent-1", Images: []string{"agent=agent:1"}},
			{Revision: 2, Name: "agent-2", Images: []string{"agent=agent:2"}, Current: true},
		},
	}}
	return src
}

func newWorkload(t *testing.T, kind Kind, name string, acts screen.Actions) (screen.Page, *uitest.Base, *screen.Screen) {
	t.Helper()
	s := uitest.NewScreen(midRollout(), acts)
	b := &uitest.Base{}
	p := NewPage(s, b, kind, "shop", name)
	p.SetSize(100, 30)
	return p, b, s
}

// The StatefulSet page shows its settings, revisions, status, the
// ordinals with the partition marked, and the history with the cursor on
// the revision an undo goes back to.
func TestStatefulSetPage(t *testing.T) {
	p, _, _ := newWorkload(t, action.OnStatefulSet, "db", nil)
	out := uitest.Plain(p.View())
	for _, want := range []string{"statefulset/db  replicas 5  partition 3", "images db=postgres:15.5",
		"Waiting for 1 pods to be ready...", "ordinals", "┃", "▸ 1    db=postgres:15.4"} {
		if !strings.Contains(out, want) {
			t.Errorf("StatefulSet page lacks %q:\n%s", want, out)
		}
	}
	p.Update(uitest.Press("down"))
	if out := uitest.Plain(p.View()); !strings.Contains(out, "▸ 2") {
		t.Errorf("down did not move to revision 2:\n%s", out)
	}
}

// Mid-rollout the history names the revisions as the revisions line does:
// the one the pods move to "update", the one the rest still run "current"
// — never the new one "current" under a line that says otherwise. Once
// rolled out, the one revision is current.
func TestStatefulSetHistoryNamesRevisionsAsItsStatusDoes(t *testing.T) {
	p, _, s := newWorkload(t, action.OnStatefulSet, "db", &uitest.Actions{})
	out := uitest.Plain(p.View())
	for _, want := range []string{"revisions current db-1 (3)  update db-2 (2)", "1    db=postgres:15.4  (current)", "2    db=postgres:15.5  (update)"} {
		if !strings.Contains(out, want) {
			t.Errorf("mid-rollout history lacks %q:\n%s", want, out)
		}
	}
	p.Update(uitest.Press("down"))
	p.Update(uitest.Press("u"))
	if want := "statefulset/db is already at revision 2"; !strings.HasPrefix(s.Toast, want) {
		t.Errorf("undo to the template's own revision: toast %q, want it to start %q", s.Toast, want)
	}

	src := midRollout()
	db := src.Sets["shop/db"]
	db.CurrentRevision, db.Current = "db-2", 5
	src.Sets["shop/db"] = db
	done := NewPage(uitest.NewScreen(src, nil), &uitest.Base{}, action.OnStatefulSet, "shop", "db")
	done.SetSize(100, 30)
	out = uitest.Plain(done.View())
	if !strings.Contains(out, "2    db=postgres:15.5  (current)") || strings.Contains(out, "(update)") || strings.Contains(out, "15.4  (current)") {
		t.Errorf("rolled out, the history should mark revision 2 alone, current:\n%s", out)
	}
}

// A DaemonSet rolled a few times a day for years is past ControllerRevision
// 10000: its history's numbers are whole, never cut to a false "1240…".
func TestFiveDigitRevisionsAreWhole(t *testing.T) {
	src := midRollout()
	ds := src.Daemons["shop/agent"]
	ds.History = []cluster.WorkloadRevision{
		{Revision: 9998, Name: "agent-9998", Images: []string{"agent=agent:1"}},
		{Revision: 12407, Name: "agent-12407", Images: []string{"agent=agent:2"}, Current: true},
	}
	src.Daemons["shop/agent"] = ds
	s := uitest.NewScreen(src, nil)
	p := NewPage(s, &uitest.Base{}, action.OnDaemonSet, "shop", "agent")
	p.SetSize(100, 30)
	out := uitest.Plain(p.View())
	if !strings.Contains(out, "▸ 9998  agent=agent:1") || !strings.Contains(out, "  12407 agent=agent:2") {
		t.Errorf("five-digit revisions:\n%s", out)
	}
}

// The DaemonSet page shows each node's state.
func TestDaemonSetPage(t *testing.T) {
	p, _, _ := newWorkload(t, action.OnDaemonSet, "agent", nil)
	out := uitest.Plain(p.View())
	for _, want := range []string{"daemonset/agent", "agent=agent:2", "Waiting for daemon set \"agent\" rollout to finish", "node-1"} {
		if !strings.Contains(out, want) {
			t.Errorf("DaemonSet page lacks %q:\n%s", want, out)
		}
	}
}

// u asks to confirm the undo with kubectl's command, writes while open
// (the clock is held), and n cancels without sending.
func TestUndoAsksFirst(t *testing.T) {
	acts := &uitest.Actions{}
	p, b, _ := newWorkload(t, action.OnStatefulSet, "db", acts)
	p.Update(uitest.Press("u"))
	if !p.Typing() || !p.Writes() {
		t.Fatal("u opened no question")
	}
	if out := uitest.Plain(p.View()); !strings.Contains(out, "kubectl -n shop rollout undo statefulset/db --to-revision=1") {
		t.Errorf("confirmation lacks kubectl's command:\n%s", out)
	}
	p.Update(uitest.Press("tab"))
	if len(b.Keys) != 0 {
		t.Errorf("a key reached the page below during the question: %q", b.Keys)
	}
	p.Update(uitest.Press("n"))
	if p.Typing() || len(acts.Sent) != 0 {
		t.Errorf("n: typing %v, sent %v", p.Typing(), acts.Sent)
	}
}

// Keys that are not the page's go to the page under it; esc closes it.
func TestOtherKeysGoBelowAndEscCloses(t *testing.T) {
	p, b, s := newWorkload(t, action.OnDaemonSet, "agent", nil)
	p.Update(uitest.Press("tab"))
	// A disabled action key of the kind says why rather than reaching the
	// Deployment's.
	p.Update(uitest.Press("u"))
	if strings.Join(b.Keys, " ") != "tab" || !strings.Contains(s.Toast, "no cluster") {
		t.Errorf("below got %q, toast %q", b.Keys, s.Toast)
	}
	if next, _ := p.Update(uitest.Press("esc")); next != nil {
		t.Error("esc did not close the page")
	}
}

// Every key the footer offers acts on this page: none of them falls
// through to the Deployment's page under it (the console's own keys —
// help, the command line, quit — are the root's, on every page).
func TestFooterOffersOnlyThisPagesKeys(t *testing.T) {
	for _, kind := range []struct {
		kind Kind
		name string
	}{{action.OnStatefulSet, "db"}, {action.OnDaemonSet, "agent"}} {
		p, _, s := newWorkload(t, kind.kind, kind.name, &uitest.Actions{})
		for _, b := range p.KeyMap().ShortHelp() {
			if b.Help() == s.Keys.Help.Help() || b.Help() == s.Keys.Command.Help() || b.Help() == s.Keys.Quit.Help() {
				continue
			}
			fresh, base, _ := newWorkload(t, kind.kind, kind.name, &uitest.Actions{})
			fresh.Update(uitest.Press(b.Keys()[0]))
			if len(base.Keys) > 0 {
				t.Errorf("%s page: the footer offers %q, which goes to the page under it", kind.kind, b.Help().Key)
			}
		}
	}
}

// An ordinal whose pod is not there yet (OrderedReady creating them one at
// a time, or a scale-up) runs no revision: the strip shows it missing and
// the revision row marks nothing under it.
func TestStatefulSetOrdinalWithoutAPodHasNoRevisionMark(t *testing.T) {
	src := midRollout()
	set := src.Sets["shop/db"]
	set.Ordinals = append([]cluster.OrdinalCell(nil), set.Ordinals...)
	set.Ordinals[4].Exists, set.Ordinals[4].Updated = false, false
	src.Sets["shop/db"] = set
	s := uitest.NewScreen(src, nil)
	p := NewPage(s, &uitest.Base{}, action.OnStatefulSet, "shop", "db")
	p.SetSize(100, 30)
	out := uitest.Plain(p.View())
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	for _, want := range []string{"ordinals  ● ● ●┃ ◐ ·", "revision  o o o  u"} {
		if !slices.Contains(lines, want) {
			t.Errorf("the StatefulSet page lacks the line %q:\n%s", want, out)
		}
	}
}
