package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/screen"
)

// twoClusters are east's and west's fleets: the same frontend in shop in
// both, east's rolling, west's failed; each cluster its own actions.
func twoClusters(t *testing.T, w, h int, edit func(east, west *Options)) (Model, *fakeActions, *fakeActions) {
	t.Helper()
	stamp := func(name string, state cluster.FleetState, word string) *fleetSource {
		src := newFleetSource()
		src.rows = nil
		for _, r := range fleetRows() {
			if r.Name == "frontend" || name == "west" && r.Name == "ledger" {
				r.Cluster = name
				if r.Name == "frontend" {
					r.State, r.Word = state, word
				}
				src.rows = append(src.rows, r)
			}
		}
		return src
	}
	eastActs, westActs := &fakeActions{}, &fakeActions{}
	east := Options{Cluster: stamp("east", cluster.FleetRolling, "rolling"), Context: "east", Namespace: "shop", AllNamespaces: true, Actions: eastActs}
	west := Options{Cluster: stamp("west", cluster.FleetFailed, "failed"), Context: "west", Namespace: "shop", AllNamespaces: true, Actions: westActs}
	if edit != nil {
		edit(&east, &west)
	}
	east.Theme, east.Clock, east.Also = themes.Dark(), fixedClock, append([]Options{west}, east.Also...)
	return send(New(east), tea.WindowSizeMsg{Width: w, Height: h}), eastActs, westActs
}

// filtered is m with text typed after / and kept.
func filtered(m Model, text string) Model {
	msgs := append([]tea.Msg{press("/")}, typed(text)...)
	return send(m, append(msgs, press("enter"))...)
}

func TestOneFleetOfTwoClustersNamesEachRowsCluster(t *testing.T) {
	m, _, _ := twoClusters(t, 160, 48, nil)
	s := plain(m)
	for _, want := range []string{"ctx east,west", "CLUSTER", "east 1 workload │ west 2 workloads, 2 failing"} {
		if !strings.Contains(s, want) {
			t.Errorf("the fleet of two clusters lacks %q:\n%s", want, s)
		}
	}
	var order []string
	for _, l := range strings.Split(s, "\n") {
		if f := strings.Fields(strings.TrimLeft(l, " ▸")); len(f) > 3 && (f[0] == "east" || f[0] == "west") && f[2] == "deploy" {
			order = append(order, f[0]+"/"+f[3])
		}
	}
	// By urgency across clusters: west's two failed rows, then east's.
	if got := strings.Join(order, " "); got != "west/frontend west/ledger east/frontend" {
		t.Errorf("rows %q, want west's failed rows before east's rolling frontend", got)
	}
}

func TestCtxFilterKeepsOneCluster(t *testing.T) {
	m, _, _ := twoClusters(t, 160, 48, nil)
	m = filtered(m, "ctx:east")
	s := plain(m)
	if strings.Contains(s, "ledger") || !strings.Contains(s, "frontend") || !strings.Contains(s, "1 of 3") {
		t.Errorf("/ctx:east does not keep east's rows alone:\n%s", s)
	}
}

func TestARowsActionGoesToItsClusterNamingTheContext(t *testing.T) {
	m, eastActs, westActs := twoClusters(t, 160, 48, nil)
	m = filtered(m, "ctx:east frontend")
	m = send(m, press("p"))
	s := plain(m)
	if !strings.Contains(s, "kubectl --context east -n shop rollout pause deployment/frontend") {
		t.Fatalf("the confirmation does not name east:\n%s", s)
	}
	next, cmd := m.Update(press("y"))
	m = runCmd(next.(Model), cmd)
	if len(eastActs.sent) != 1 || eastActs.sent[0].Action != action.Pause || len(westActs.sent) != 0 {
		t.Errorf("east sent %+v, west sent %+v; want the pause sent to east only", eastActs.sent, westActs.sent)
	}
}

func TestARowsKeysAreItsClustersRBAC(t *testing.T) {
	m, _, westActs := twoClusters(t, 160, 48, func(_, west *Options) {
		west.Denied = map[action.Name]string{action.Pause: "west: you may not patch deployments"}
	})
	m = filtered(m, "ctx:west frontend")
	m = send(m, press("p"))
	if s := plain(m); !strings.Contains(s, "you may not patch deployments") || strings.Contains(s, "rollout pause") {
		t.Errorf("p on west's row is not refused with west's reason:\n%s", s)
	}
	if len(westActs.sent) != 0 {
		t.Errorf("west sent %+v", westActs.sent)
	}
}

func TestAStaleClusterSaysLastKnownAndWhy(t *testing.T) {
	m, _, _ := twoClusters(t, 160, 48, func(east, _ *Options) {
		east.Cluster.(*fleetSource).watch = cluster.WatchStatus{Synced: true, Problem: "connection refused", Since: t0.Add(-12e9)}
	})
	if s := plain(m); !strings.Contains(s, "east: last known 12s ago: connection refused") || strings.Contains(s, "west: last known") {
		t.Errorf("east's rows are not marked last known, or west's are:\n%s", s)
	}
}

func TestOneClusterHasNoClusterColumn(t *testing.T) {
	m := newFleetModel(t, newFleetSource(), 160, 48, nil)
	if s := plain(m); strings.Contains(s, "CLUSTER") {
		t.Errorf("one cluster shows a CLUSTER column:\n%s", s)
	}
}

func TestClusterColumnGivesUpBeforeNameProgressState(t *testing.T) {
	for _, w := range []int{80, 60} {
		m, _, _ := twoClusters(t, w, 24, nil)
		s := plain(m)
		if !strings.Contains(s, "NAME") || !strings.Contains(s, "STATE") || !strings.Contains(s, "PROGRESS") {
			t.Errorf("at %d columns NAME, PROGRESS or STATE is gone:\n%s", w, s)
		}
		if w == 80 && !strings.Contains(s, "CLUSTER") {
			t.Errorf("at 80 columns the CLUSTER column is gone:\n%s", s)
		}
	}
}

// East has one workload; west has not listed its own yet: the start rule
// (open the scope's only workload) waits for every cluster.
func TestTheStartRuleWaitsForEveryCluster(t *testing.T) {
	m, _, _ := twoClusters(t, 160, 48, func(_, west *Options) {
		west.Cluster.(*fleetSource).watch, west.Cluster.(*fleetSource).rows = cluster.WatchStatus{}, nil
	})
	if s := plain(m); !strings.Contains(s, "CLUSTER") || strings.Contains(s, "ReplicaSets") {
		t.Errorf("the console left the fleet before west had listed its workloads:\n%s", s)
	}
}

// A context that could not be connected to is one line naming it; the
// others' rows are shown.
func TestAnUnreachableClusterIsOneLineBesideTheOthers(t *testing.T) {
	const why = `cannot reach the API server https://10.0.0.9:6443: connection refused — is the cluster up, and is --context right? (context "south")`
	m, _, _ := twoClusters(t, 200, 48, func(east, _ *Options) {
		east.Unreachable = map[string]string{"south": why}
	})
	s := plain(m)
	for _, want := range []string{"ctx east,west,south", "south 0 workloads !", " south: " + why} {
		if !strings.Contains(s, want) {
			t.Errorf("the fleet lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(s, "east    shop") || !strings.Contains(s, "west    billing") {
		t.Errorf("east's and west's rows are not shown beside south's line:\n%s", s)
	}
}

// `:ctx a,b` and `:ctx all` switch to several contexts at once; a list
// naming one the kubeconfig lacks is refused, naming it.
func TestCtxSwitchesToSeveralContexts(t *testing.T) {
	sc := &scope{context: "east", contexts: []string{"east", "south", "west"}, watchAll: true}
	for _, c := range []struct {
		asked, want, toast string
	}{
		{"east,west", "east,west", ""},
		{"west, east", "west,east", ""},
		{"all", "east,south,west", ""},
		{"east", "", "already on context east"},
		{"east,nope", "", "no context nope in the kubeconfig — :ctx lists them"},
	} {
		toast, next := sc.toContext(screen.Scope{Context: c.asked}, "")
		got := ""
		if next != nil {
			got = next.Context
		}
		if got != c.want || toast != c.toast {
			t.Errorf(":ctx %s: switch to %q, toast %q; want %q, %q", c.asked, got, toast, c.want, c.toast)
		}
	}
	sc.context = "east,west"
	if toast, _ := sc.toContext(screen.Scope{ListContexts: true}, ""); toast != "contexts: *east, south, *west — :ctx NAME switches" {
		t.Errorf(":ctx with east and west shown lists %q", toast)
	}
}

// g makes the same workload in both clusters one row — west's, failing —
// saying what each runs; g again splits it.
func TestGroupMakesOneRowPerWorkloadAcrossClusters(t *testing.T) {
	m, _, _ := twoClusters(t, 200, 48, nil)
	m = send(m, press("g"))
	s := plain(m)
	for _, want := range []string{"PER CLUSTER", "west +1", "west rev 3 nginx:1.28 failed · east rev 3 nginx:1.28 rolling"} {
		if !strings.Contains(s, want) {
			t.Errorf("grouped, the fleet lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "deploy frontend") != 1 {
		t.Errorf("frontend is not one row:\n%s", s)
	}
	m = send(m, press("g"))
	if s := plain(m); strings.Contains(s, "PER CLUSTER") || !strings.Contains(s, "IMAGES") {
		t.Errorf("g again does not split the rows:\n%s", s)
	}
}

// With one cluster g is still top.
func TestGWithOneClusterIsTop(t *testing.T) {
	m := newFleetModel(t, newFleetSource(), 160, 48, nil)
	m = send(m, press("j"), press("j"), press("g"))
	if s := plain(m); strings.Contains(s, "PER CLUSTER") || !strings.Contains(s, "billing deploy/ledger:") {
		t.Errorf("g with one cluster did not go to the top row:\n%s", s)
	}
}

// Each cluster's keys are its own: a cluster with nothing to act with does
// not take the other's.
func TestEachClustersKeysAreItsOwn(t *testing.T) {
	m, _, _ := twoClusters(t, 160, 48, func(_, west *Options) { west.Actions = nil })
	m = filtered(m, "ctx:west frontend")
	m = send(m, press("p"))
	if s := plain(m); strings.Contains(s, "rollout pause deployment/frontend") {
		t.Errorf("p on the row of west, which has nothing to act with, asks to send:\n%s", s)
	}
}
