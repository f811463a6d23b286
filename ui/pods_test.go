package ui

import (
	"slices"
	"strings"
	"testing"

	"rollscope/model/cluster"

	"rollscope/ui/overlays/help"
	"rollscope/ui/overlays/picker"
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
// the console awaits every pod, it says it is listing them, as
// cluster.Cluster does.
type needing struct {
	*fleetSource
	awaited bool
}

func (*needing) PodsNeeded() (bool, []string) { return false, []string{"billing"} }
func (n *needing) AwaitAllPods()              { n.awaited = true }
func (n *needing) Watch() cluster.WatchStatus {
	w := cluster.WatchStatus{Synced: !n.awaited, Connected: true, PodsNarrowed: true, PodNamespaces: "billing"}
	if n.awaited {
		w.Listing = "Pod"
	}
	return w
}

// The fleet of every namespace, shown alone or under the help or the
// command line, asks only for the pods its rows need; opening a workload
// asks for every pod, as its pages read them freely.
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
	if !asked.all {
		t.Error("a workload's page did not ask for every pod")
	}
	// The page says its picture is incomplete from the frame it opens
	// on, not only once the watch's next batch says so.
	if s := plain(m); !strings.Contains(s, "listing pods") {
		t.Errorf("the page opened before every pod was listed does not say so:\n%s", s)
	}
}
