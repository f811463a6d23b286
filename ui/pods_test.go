package ui

import (
	"slices"
	"strings"
	"testing"

	"rollscope/model/cluster"

	"rollscope/ui/overlays/help"
	"rollscope/ui/overlays/picker"
	"rollscope/ui/screen"
)

// askedPods records what the console asks its watch for.
type askedPods struct {
	all        bool
	namespaces []string
}

func (a *askedPods) Want(all bool, namespaces ...string) {
	a.all = a.all || all
	for _, ns := range namespaces {
		if !slices.Contains(a.namespaces, ns) {
			a.namespaces = append(a.namespaces, ns)
		}
	}
}

// needing is a fleet whose rows need billing's pods, watched alone; told
// the console awaits pods it does not hold, it says it is listing them, as
// cluster.Cluster does.
type needing struct {
	*fleetSource
	awaited *string
}

func (*needing) PodsNeeded() (bool, []string) { return false, []string{"billing"} }
func (n *needing) AwaitPods(namespace string) { n.awaited = &namespace }
func (n *needing) Watch() cluster.WatchStatus {
	w := cluster.WatchStatus{Synced: true, Connected: true, PodsNarrowed: true, PodNamespaces: "billing"}
	if n.awaited != nil && (*n.awaited == "" || !w.HoldsPods(*n.awaited)) {
		w.Synced, w.Listing = false, "Pod"
	}
	return w
}

// The fleet of every namespace, shown alone or under the help or the
// command line, asks only for the pods its rows need; opening a workload
// asks for its namespace's besides, and focusing the Nodes pane, which
// counts every pod on each node, for every pod.
func TestTheFleetAsksOnlyForThePodsItsRowsNeed(t *testing.T) {
	asked := &askedPods{}
	src := &needing{fleetSource: newFleetSource()}
	m := newFleetModel(t, src, 160, 48, func(o *Options) { o.Pods = asked })
	if asked.all || !slices.Equal(asked.namespaces, []string{"billing"}) {
		t.Fatalf("the fleet asked for (all %v) %v, want billing's pods only", asked.all, asked.namespaces)
	}
	m = send(m, press("j"))
	m = send(m, press("?"))
	if _, ok := m.overlay.(*help.Help); !ok {
		t.Fatalf("? opened %T, want the help", m.overlay)
	}
	if asked.all {
		t.Fatal("moving down the fleet or opening the help asked for every pod")
	}
	m = send(m, press("esc"))
	m = send(m, press(":"))
	if _, ok := m.overlay.(*picker.Picker); !ok || asked.all {
		t.Fatalf("the command line (%T) asked for every pod: %v", m.overlay, asked.all)
	}
	m = send(m, press("esc"))
	m = send(m, press("enter"))
	if m.top() == m.home {
		t.Fatal("enter did not open the row")
	}
	opened, _ := m.top().(screen.PodReader).PodsRead()
	if asked.all || !slices.Equal(asked.namespaces, []string{"billing", opened}) {
		t.Fatalf("a workload's page in %s asked for (all %v) %v, want billing's and its own namespace's pods", opened, asked.all, asked.namespaces)
	}
	// The page says its picture is incomplete from the frame it opens
	// on, not only once the watch's next batch says so.
	if s := plain(m); !strings.Contains(s, "listing pods") {
		t.Errorf("the page opened before %s's pods were listed does not say so:\n%s", opened, s)
	}
}

// A Deployment's page under -A reads its namespace's pods; its Nodes pane
// counts every pod on each node, and says no count while the picture holds
// only some namespaces' pods, until focusing it has asked for them all.
func TestTheNodesPaneCountsPodsOnlyWithEveryPod(t *testing.T) {
	asked := &askedPods{}
	src := &needing{fleetSource: newFleetSource()}
	m := newFleetModel(t, src, 160, 48, func(o *Options) { o.Pods, o.Deployment = asked, "frontend" })
	if asked.all || !slices.Equal(asked.namespaces, []string{"billing", "shop"}) {
		t.Fatalf("frontend's page asked for (all %v) %v, want billing's and shop's pods", asked.all, asked.namespaces)
	}
	// NAME READY SCHED PODS VERSION …: node-0 holds 5 pods of every namespace.
	if rows := nodeRows(plain(m)); len(rows) != 4 || strings.Fields(rows[0])[3] != "-" {
		t.Fatalf("with only some namespaces' pods held the Nodes pane counts pods:\n%s", strings.Join(rows, "\n"))
	}
	for range 2 {
		m = send(m, press("tab"))
	}
	if !asked.all {
		t.Fatalf("the Nodes pane, focused, did not ask for every pod:\n%s", plain(m))
	}
}

// nodeRows are the screen's lines that name a node of the fixture.
func nodeRows(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "node-") && strings.Contains(l, "Ready") {
			out = append(out, l)
		}
	}
	return out
}
