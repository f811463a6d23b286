package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

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

// East has one workload; west has not listed its own yet, or is still
// being connected to: the start rule (open the scope's only workload) is
// for one cluster, and the console stays on the fleet of several.
func TestTheStartRuleIsForOneCluster(t *testing.T) {
	for name, edit := range map[string]func(east, west *Options){
		"west not listed": func(_, west *Options) {
			west.Cluster.(*fleetSource).watch, west.Cluster.(*fleetSource).rows = cluster.WatchStatus{}, nil
		},
		"west connecting": func(east, west *Options) {
			east.Cluster.(*fleetSource).rows = east.Cluster.(*fleetSource).rows[:1]
			*west = Options{Context: "west", Problem: "connecting…"}
		},
		"both listed, one workload in all": func(east, west *Options) {
			east.Cluster.(*fleetSource).rows = east.Cluster.(*fleetSource).rows[:1]
			west.Cluster.(*fleetSource).rows = nil
		},
	} {
		m, _, _ := twoClusters(t, 160, 48, edit)
		if s := plain(m); !strings.Contains(s, "CLUSTER") || strings.Contains(s, "ReplicaSets") {
			t.Errorf("%s: the console left the fleet of two clusters for east's one workload:\n%s", name, s)
		}
	}
}

// A context that could not be connected to is one line naming it; the
// others' rows are shown.
func TestAnUnreachableClusterIsOneLineBesideTheOthers(t *testing.T) {
	const why = `cannot reach the API server https://10.0.0.9:6443: connection refused — is the cluster up, and is --context right? (context "south")`
	m, _, _ := twoClusters(t, 200, 48, func(east, _ *Options) {
		east.Unreachable = []Options{{Context: "south", Problem: why}}
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
		{"east,nope", "", "no context nope in the kubeconfig — there are east, south, west"},
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

// A cluster still connecting when the console opened says so beside the
// others' rows; tried and refused, it says why and how long ago it was
// tried; connected at last, its rows join the fleet, its keys its own
// RBAC, and its actions go to it.
func TestAClusterThatAnswersLaterJoinsTheFleet(t *testing.T) {
	m, eastActs, westActs := twoClusters(t, 200, 48, func(east, _ *Options) {
		east.Unreachable = []Options{{Context: "south", Problem: "connecting…"}}
	})
	s := plain(m)
	for _, want := range []string{"south 0 workloads !", " south: connecting…", "east    shop"} {
		if !strings.Contains(s, want) {
			t.Errorf("before south answers, the fleet lacks %q:\n%s", want, s)
		}
	}

	const why = `cannot reach the API server https://10.0.0.9:6443: connection refused (context "south")`
	m = send(m, Reached{Options{Context: "south", Problem: why, Tried: t0.Add(-4 * time.Second)}})
	if s := plain(m); !strings.Contains(s, " south: last tried 4s ago: "+why) {
		t.Errorf("south refused: the fleet does not say why and when it was tried:\n%s", s)
	}

	southActs := &fakeActions{}
	src := newFleetSource()
	src.rows = nil
	for _, r := range fleetRows() {
		if r.Name == "frontend" {
			r.Cluster = "south"
			src.rows = append(src.rows, r)
		}
	}
	m = send(m, Reached{Options{Context: "south", Cluster: src, Actions: southActs,
		Denied: map[action.Name]string{action.Resume: "south: you may not patch deployments"}}})
	s = plain(m)
	if strings.Contains(s, "connecting…") || strings.Contains(s, "last tried") || !strings.Contains(s, "south   shop") || !strings.Contains(s, "south 1 workload") {
		t.Fatalf("south connected: its rows are not in the fleet, or its problem stays:\n%s", s)
	}
	m = filtered(m, "ctx:south frontend")
	m = send(m, press("p"))
	if s := plain(m); !strings.Contains(s, "kubectl --context south -n shop rollout pause deployment/frontend") {
		t.Fatalf("the confirmation does not name south:\n%s", s)
	}
	next, cmd := m.Update(press("y"))
	m = runCmd(next.(Model), cmd)
	if len(southActs.sent) != 1 || len(eastActs.sent)+len(westActs.sent) != 0 {
		t.Errorf("south sent %+v, east %+v, west %+v; want the pause sent to south only", southActs.sent, eastActs.sent, westActs.sent)
	}
}

// heldFleet hands out the same sorted rows on every read, as a
// cluster.Cluster's cache does while nothing changed.
type heldFleet struct{ *fleetSource }

func (h heldFleet) Fleet(string, time.Time) []cluster.FleetRow { return h.rows }

// The fleet of three clusters, 2,000 workloads in all: each refresh merges
// the clusters' sorted rows (cluster.MergeFleets) and draws the frame.
func BenchmarkFleetViewThreeClusters(b *testing.B) {
	base := fleetRows()
	var each []Options
	for c, name := range []string{"eu-west", "us-east", "ap-south"} {
		src := &fleetSource{fakeSource: midRollout()}
		for i := range 2000 / 3 {
			r := base[(i+c)%len(base)]
			r.Cluster, r.Namespace, r.Name = name, fmt.Sprintf("team-%02d", i%40), fmt.Sprintf("%s-%04d", r.Name, i)
			src.rows = append(src.rows, r)
		}
		cluster.SortFleet(src.rows)
		each = append(each, Options{Cluster: heldFleet{src}, Context: name, Namespace: "shop", AllNamespaces: true})
	}
	m := newFleetModel(b, each[0].Cluster, 160, 48, func(o *Options) { o.Context, o.Also = "eu-west", each[1:] })
	b.Run("read+frame", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.refresh()
			_ = m.View()
		}
	})
	b.Run("rows-changed", func(b *testing.B) { rowsChanged(b, m) })
}
