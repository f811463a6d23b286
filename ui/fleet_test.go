package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// fleetSource is the fixture with a fleet: hand-made rows in three
// namespaces, one of each state.
type fleetSource struct {
	*fakeSource
	rows  []cluster.FleetRow
	reads int
}

func (f *fleetSource) Fleet(namespace string, _ time.Time) []cluster.FleetRow {
	f.reads++
	var out []cluster.FleetRow
	for _, r := range f.rows {
		if namespace == "" || r.Namespace == namespace {
			out = append(out, r)
		}
	}
	cluster.SortFleet(out)
	return out
}

func (f *fleetSource) Namespaces() []string { return []string{"billing", "infra", "shop"} }

func fleetRows() []cluster.FleetRow {
	at := func(ago time.Duration) time.Time { return t0.Add(-ago) }
	return []cluster.FleetRow{
		{Namespace: "shop", Kind: kind.Deployment, Name: "frontend", Revision: 3, Images: []string{"nginx=nginx:1.28"}, From: []string{"nginx=nginx:1.27"},
			Desired: 10, Updated: 5, Available: 10, State: cluster.FleetRolling, Word: "rolling",
			Why:   `Waiting for deployment "frontend" rollout to finish: 5 out of 10 new replicas have been updated...`,
			Since: at(40 * time.Second), Changed: at(10 * time.Second), ChangeCause: "kubectl set image deployment/frontend nginx=nginx:1.28"},
		{Namespace: "shop", Kind: kind.Deployment, Name: "checkout", Revision: 1, Images: []string{"app=shop/checkout:2.1"},
			Desired: 2, Updated: 2, Available: 2, State: cluster.FleetComplete, Word: "complete", Since: at(3 * time.Hour), Changed: at(3 * time.Hour)},
		{Namespace: "shop", Kind: kind.Deployment, Name: "search", Revision: 4, Images: []string{"app=registry.example.com/shop/search:5.0"},
			From: []string{"app=registry.example.com/shop/search:4.9"}, Desired: 3, Updated: 1, Available: 3,
			State: cluster.FleetPaused, Word: "paused", Why: "paused by someone: kubectl rollout resume deployment/search continues it",
			Since: at(20 * time.Minute), Changed: at(20 * time.Minute), ChangeCause: "deploy search 5.0"},
		{Namespace: "billing", Kind: kind.Deployment, Name: "ledger", Revision: 7, Images: []string{"app=registry.example.com/billing/ledger:3.2"},
			From: []string{"app=registry.example.com/billing/ledger:3.1"}, Desired: 6, Updated: 2, Available: 4,
			State: cluster.FleetFailed, Word: "failed", Why: `deployment "ledger" exceeded its progress deadline: pods of ledger-6d4f can not pull registry.example.com/billing/ledger:3.2 (ImagePullBackOff) on 2 nodes`,
			Since: at(15 * time.Minute), Changed: at(11 * time.Minute), ChangeCause: "ledger 3.2"},
		{Namespace: "billing", Kind: kind.Deployment, Name: "invoices", Revision: 2, Images: []string{"app=billing/invoices:1.4"},
			Desired: 4, Updated: 4, Available: 3, State: cluster.FleetCrashLooping, Word: "crash-looping",
			Why: "pod invoices-5c7-x2k: CrashLoopBackOff (6 restarts)", Since: at(2 * time.Hour), Changed: at(time.Minute)},
		{Namespace: "billing", Kind: kind.Deployment, Name: "payments", Revision: 5, Images: []string{"app=billing/payments:8"}, From: []string{"app=billing/payments:7"},
			Desired: 8, Updated: 2, Available: 8, State: cluster.FleetCanary, Word: "canary step 2/4", Why: "holding at 25% for 5m: gate error-rate ok",
			Since: at(6 * time.Minute), Changed: at(2 * time.Minute)},
		{Namespace: "infra", Kind: kind.DaemonSet, Name: "node-agent", Revision: 3, Images: []string{"agent=registry.example.com/infra/node-agent:2.1"},
			Desired: 5, Updated: 5, Available: 4, State: cluster.FleetNodeRoll, Word: "node roll", Why: "its pods are moving off nodes being drained",
			Since: at(48 * time.Hour), Changed: at(30 * time.Second)},
		{Namespace: "infra", Kind: kind.StatefulSet, Name: "db", Revision: 2, Images: []string{"db=registry.example.com/shop/db:15.5"},
			Desired: 5, Updated: 2, Available: 5, State: cluster.FleetStuck, Word: "stuck", Why: "no progress for 4m — partitioned roll out held at 3",
			Since: at(30 * time.Minute), Changed: at(4 * time.Minute)},
		{Namespace: "infra", Kind: kind.ReplicationController, Name: "web", Images: []string{"nginx=quay.io/nginx:1.27"}, Desired: 3, Updated: 3, Available: 3,
			State: cluster.FleetComplete, Word: "complete", Since: at(5 * 24 * time.Hour), Changed: at(5 * 24 * time.Hour)},
	}
}

func newFleetSource() *fleetSource { return &fleetSource{fakeSource: midRollout(), rows: fleetRows()} }

// newFleetModel starts the console as the command does with no workload
// named: on the fleet, here of every namespace.
func newFleetModel(t testing.TB, src Source, w, h int, edit func(*Options)) Model {
	t.Helper()
	opts := Options{Cluster: src, Namespace: "shop", AllNamespaces: true, Context: "kind-dev", Theme: themes.Dark(), Clock: fixedClock}
	if edit != nil {
		edit(&opts)
	}
	return send(New(opts), tea.WindowSizeMsg{Width: w, Height: h})
}

// fleetLines are the screen's lines that name a kind in the KIND column.
func fleetLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		// The selected row's marker is in the gutter, not a column.
		l = strings.Replace(l, draw.Marker, " ", 1)
		f := strings.Fields(l)
		for _, kind := range []string{"deploy", "sts", "ds", "rc"} {
			if len(f) > 1 && (f[0] == kind || f[1] == kind) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

func TestFleetIsTheStartScreenRankedByUrgency(t *testing.T) {
	m := newFleetModel(t, newFleetSource(), 160, 48, nil)
	s := plain(m)
	if !strings.Contains(s, "rollscope ctx kind-dev  fleet") {
		t.Fatalf("the console did not start on the fleet:\n%s", s)
	}
	for _, want := range []string{"all namespaces · 9 workloads · 1 failed · 1 stuck · 1 crash-looping · 1 paused · 1 canary · 1 rolling · 1 node roll · 2 complete",
		"NAMESPACE", "CHANGE-CAUSE", "/ledger:3.1 → 3.2"} {
		if !strings.Contains(s, want) {
			t.Errorf("the fleet lacks %q:\n%s", want, s)
		}
	}
	var order []string
	for _, l := range fleetLines(s) {
		order = append(order, strings.Fields(l)[2])
	}
	want := "ledger db invoices search payments frontend node-agent checkout web"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("rows in order %q, want failed, stuck, crash-looping, paused, canary, rolling, node roll, complete: %q", got, want)
	}
	// The selected row's why is whole under the table.
	if !strings.Contains(s, "billing deploy/ledger: deployment \"ledger\" exceeded its progress deadline: pods of ledger-6d4f can not pull") {
		t.Errorf("the first row's why is not under the table:\n%s", s)
	}
}

func TestFleetStatesReadWithoutColour(t *testing.T) {
	m := newFleetModel(t, newFleetSource(), 160, 48, func(o *Options) { o.Theme = themes.NoColor() })
	s := m.Render()
	for _, want := range []string{"✖ failed", "■ stuck", "↻ crash-looping", "‖ paused", "◐ canary step 2/4", "▶ rolling", "⇄ node roll", "✔ complete",
		// updated 2, available 4 of 6: ██ updated, ▒▒▒ serving old, ░ missing.
		"██▒▒▒░░░       2/4/6"} {
		if !strings.Contains(s, want) {
			t.Errorf("without colour the fleet lacks %q:\n%s", want, s)
		}
	}
}

func TestFleetDropsColumnsLeastUsefulFirst(t *testing.T) {
	for _, c := range []struct {
		w          int
		want, lack []string
	}{
		{160, []string{"IMAGES", "AGE", "CHANGE-CAUSE"}, nil},
		{105, []string{"IMAGES", "AGE"}, []string{"CHANGE-CAUSE"}},
		{80, []string{"NAMESPACE", "NAME", "REV", "PROGRESS", "STATE"}, []string{"IMAGES", "AGE", "CHANGE-CAUSE"}},
	} {
		m := newFleetModel(t, newFleetSource(), c.w, 24, nil)
		s := plain(m)
		checkFits(t, m.Render(), c.w, 24)
		for _, want := range c.want {
			if !strings.Contains(s, want) {
				t.Errorf("%d wide: no %s column:\n%s", c.w, want, s)
			}
		}
		for _, lack := range c.lack {
			if strings.Contains(s, lack) {
				t.Errorf("%d wide: %s should have gone first:\n%s", c.w, lack, s)
			}
		}
	}
}

func TestFleetFilters(t *testing.T) {
	m := newFleetModel(t, newFleetSource(), 120, 30, nil)
	m = send(m, press("/"))
	m = send(m, typed("state:paused")...)
	s := plain(m)
	if !strings.Contains(s, "/state:paused█  1 of 9") || len(fleetLines(s)) != 1 || !strings.Contains(fleetLines(s)[0], "search") {
		t.Fatalf("/state:paused does not keep only search:\n%s", s)
	}
	m = send(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "/state:paused  1 of 9") {
		t.Errorf("enter did not keep the filter:\n%s", s)
	}
	// An unknown state word: ParseFleetFilter's line, the last filter kept.
	m = send(m, press("/"), press("backspace"), press("backspace"))
	m = send(m, typed("x")...)
	s = plain(m)
	if !strings.Contains(s, `"pausx" is not a rollout state: use one of failed, stuck`) || len(fleetLines(s)) != 1 {
		t.Errorf("an unknown state is not refused in one line:\n%s", s)
	}
	// Words match namespace/kind/name; esc clears the filter.
	m = send(m, press("esc"), press("/"))
	m = send(m, typed("ns:billing pay")...)
	if s := plain(m); len(fleetLines(s)) != 1 || !strings.Contains(fleetLines(s)[0], "payments") {
		t.Errorf("ns:billing pay does not keep only payments:\n%s", s)
	}
	m = send(m, press("esc"))
	if s := plain(m); len(fleetLines(s)) != 9 {
		t.Errorf("esc did not clear the filter:\n%s", s)
	}
}

func TestFleetEnterOpensTheRowAndEscComesBack(t *testing.T) {
	m := newFleetModel(t, newFleetSource(), 120, 30, nil)
	// checkout is the eighth row; the fixture has its rollout.
	for range 7 {
		m = send(m, press("j"))
	}
	m = send(m, press("enter"))
	s := plain(m)
	if !strings.Contains(s, "deploy checkout") || !strings.Contains(s, "ReplicaSets") {
		t.Fatalf("enter on checkout did not open its rollout:\n%s", s)
	}
	m = send(m, press("esc"))
	s = plain(m)
	if !strings.Contains(s, "fleet") || !strings.Contains(s, "shop deploy/checkout: complete") {
		t.Fatalf("esc did not come back to the fleet on the same row:\n%s", s)
	}
	// A StatefulSet's row opens its view; esc comes back again.
	m = send(m, press("g"), press("j"), press("enter"))
	if s := plain(m); !strings.Contains(s, "statefulset/db") {
		t.Fatalf("enter on sts/db did not open its view:\n%s", s)
	}
	// Its header says the StatefulSet's namespace, not the fleet's scope.
	if head := strings.SplitN(plain(m), "\n", 2)[0]; !strings.Contains(head, "ns infra  statefulset db") {
		t.Errorf("the view of infra's sts/db is headed %q", head)
	}
	m = send(m, press("esc"))
	if s := plain(m); !strings.Contains(s, "infra sts/db: no progress") {
		t.Fatalf("esc from the StatefulSet view did not come back to the fleet:\n%s", s)
	}
	// F opens the fleet from a rollout.
	m = send(m, press("G"), press("k"), press("enter"), press("F"))
	if s := plain(m); !strings.Contains(s, "all namespaces · 9 workloads") {
		t.Errorf("F did not open the fleet:\n%s", s)
	}
}

func TestFleetActionKeyOpensTheRowsDialog(t *testing.T) {
	acts := &fakeActions{}
	src := newFleetSource()
	m := newActionModel(t, acts, src, func(o *Options) { o.Deployment, o.AllNamespaces = "", true })
	// frontend is the sixth row: pause it from the fleet.
	for range 5 {
		m = send(m, press("j"))
	}
	m = run(m, press("p"))
	s := plain(m)
	if !strings.Contains(s, "kubectl -n shop rollout pause deployment/frontend") {
		t.Fatalf("p on frontend's row did not open its pause dialog:\n%s", s)
	}
	m = run(m, press("y"))
	if len(acts.sent) != 1 || acts.sent[0].Action != action.Pause || acts.sent[0].Namespace != "shop" || acts.sent[0].Name != "frontend" {
		t.Fatalf("sent %+v, want a pause of shop/frontend", acts.sent)
	}
	if s := plain(m); !strings.Contains(s, "fleet") {
		t.Errorf("after the dialog the fleet is not back:\n%s", s)
	}
}

func TestFleetScopeKeys(t *testing.T) {
	// The watch covers every namespace: 0 and :ns filter the fleet.
	m := newFleetModel(t, newFleetSource(), 120, 30, nil)
	m = send(m, press("0"))
	if s := plain(m); !strings.Contains(s, "ns shop · 3 workloads") || strings.Contains(s, "NAMESPACE") {
		t.Errorf("0 did not narrow the fleet to shop:\n%s", s)
	}
	m = send(m, press(":"))
	m = send(m, typed("ns ")...)
	if s := plain(m); !strings.Contains(s, ":ns █  namespaces: billing, infra, shop · all") {
		t.Errorf(":ns does not list the namespaces:\n%s", s)
	}
	m = send(m, typed("bil")...)
	m = send(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "ns billing · 3 workloads") {
		t.Errorf(":ns billing did not show billing:\n%s", s)
	}
	if _, quit := m.Switch(); quit {
		t.Error("a scope the watch covers made the console quit")
	}
	// A namespace the watch of every namespace has not seen is refused, and
	// the console stays as it was: the fleet and the picker on billing.
	m = send(m, press(":"))
	m = send(m, typed("ns nowhere")...)
	m = send(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "no namespace nowhere in the cluster — :ns NAME with one of billing, infra, shop, or :ns all") ||
		!strings.Contains(s, "ns billing · 3 workloads") {
		t.Errorf(":ns nowhere was not refused leaving billing shown:\n%s", s)
	}
	m = send(m, press(":"))
	m = send(m, typed("x")...)
	m = send(m, press("enter"))
	if s := plain(m); !strings.Contains(s, `no deployment matches "x" in namespace billing`) {
		t.Errorf("after a refused :ns, :x does not search the namespace shown:\n%s", s)
	}
	// The watch covers one namespace: another one is a Switch.
	m = newFleetModel(t, newFleetSource(), 120, 30, func(o *Options) { o.AllNamespaces = false })
	if s := plain(m); !strings.Contains(s, "ns shop · 3 workloads") {
		t.Fatalf("the fleet of one namespace is not shop's:\n%s", s)
	}
	next, cmd := m.Update(press("0"))
	if sw, ok := next.(Model).Switch(); !ok || !sw.AllNamespaces || cmd == nil {
		t.Errorf("0 on a watch of one namespace: switch %+v %v, want all namespaces and quit", sw, ok)
	}
	m = send(m, press(":"))
	m = send(m, typed("ns billing")...)
	next, _ = m.Update(press("enter"))
	if sw, ok := next.(Model).Switch(); !ok || sw != (Switch{Namespace: "billing", Fleet: true}) {
		t.Errorf(":ns billing: switch %+v %v, want namespace billing's fleet", sw, ok)
	}
	// :ctx on the embedded cluster, and on a kubeconfig.
	m = newFleetModel(t, newFleetSource(), 120, 30, func(o *Options) { o.Context = "embedded" })
	m = send(m, press(":"))
	m = send(m, typed("ctx")...)
	m = send(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "the embedded cluster has one context: embedded") {
		t.Errorf(":ctx embedded:\n%s", s)
	}
	m = newFleetModel(t, newFleetSource(), 120, 30, func(o *Options) { o.Contexts = []string{"kind-dev", "prod-eu"} })
	m = send(m, press(":"))
	m = send(m, typed("ctx")...)
	m = send(m, press("enter"))
	if s := plain(m); !strings.Contains(s, "contexts: *kind-dev, prod-eu") {
		t.Errorf(":ctx does not list the contexts:\n%s", s)
	}
	m = send(m, press(":"))
	m = send(m, typed("ctx prod-eu")...)
	next, _ = m.Update(press("enter"))
	if sw, ok := next.(Model).Switch(); !ok || sw.Context != "prod-eu" || !sw.AllNamespaces || sw.Fleet {
		t.Errorf(":ctx prod-eu: switch %+v %v", sw, ok)
	}
}

// The scope holding exactly one workload opens it directly: every
// single-workload scenario keeps opening on its rollout.
func TestFleetOpensTheOnlyWorkload(t *testing.T) {
	src := newFleetSource()
	src.rows = src.rows[1:2] // checkout
	m := newFleetModel(t, src, 120, 30, nil)
	if s := plain(m); !strings.Contains(s, "deploy checkout") || !strings.Contains(s, "ReplicaSets") {
		t.Errorf("the only workload did not open:\n%s", s)
	}
	m = send(m, press("esc"))
	if s := plain(m); !strings.Contains(s, "1 workload") {
		t.Errorf("esc from it did not show the fleet:\n%s", s)
	}
}

// A console started again on the namespace scope the operator switched to
// (0, :ns) shows that scope's fleet even when it holds one workload: 0 on a
// rollout page of a one-Deployment cluster went back to the rollout page.
// (A :ctx starts on the context as --context does: TestCtxSwitchesAmong…)
func TestFleetOfAScopeSwitchedToStaysTheFleet(t *testing.T) {
	src := newFleetSource()
	src.rows = src.rows[1:2] // checkout
	m := newFleetModel(t, src, 120, 30, func(o *Options) { o.ShowFleet = true })
	m = send(m, tickMsg(fixedClock()))
	if s := plain(m); !strings.Contains(s, "1 workload") || strings.Contains(s, "ReplicaSets") {
		t.Errorf("the fleet of the scope switched to opened its only workload:\n%s", s)
	}
}

func TestFleetGolden(t *testing.T) {
	for _, sz := range sizes {
		name := "fleet-" + fmt.Sprint(sz.w) + "x" + fmt.Sprint(sz.h)
		t.Run(name, func(t *testing.T) {
			m := newFleetModel(t, newFleetSource(), sz.w, sz.h, nil)
			checkFits(t, m.Render(), sz.w, sz.h)
			compareGolden(t, name, ansi.Strip(m.Render())+"\n")
		})
	}
}

// BenchmarkFleetView is the fleet's frame with 2,000 workloads at 160×48.
func BenchmarkFleetView(b *testing.B) {
	src := &fleetSource{fakeSource: midRollout()}
	base := fleetRows()
	for i := range 2000 {
		r := base[i%len(base)]
		r.Namespace = fmt.Sprintf("team-%02d", i%40)
		r.Name = fmt.Sprintf("%s-%04d", r.Name, i)
		src.rows = append(src.rows, r)
	}
	m := newFleetModel(b, src, 160, 48, nil)
	b.Run("frame", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = m.View()
		}
	})
	b.Run("rows-changed", func(b *testing.B) { rowsChanged(b, m) })
}

// rowsChanged draws every visible row again (the width alternates, so no
// row's cached line fits): a frame after every row on screen changed.
func rowsChanged(b *testing.B, m Model) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.home.SetSize(160-i%2, 44)
		_ = m.home.View()
		i++
	}
}

func TestFleetShowsTheScopeNote(t *testing.T) {
	const note = "-A: this user may list only namespace shop, so the fleet shows shop — ask for list on deployments cluster-wide"
	m := newFleetModel(t, newFleetSource(), 120, 30, func(o *Options) { o.AllNamespaces, o.ScopeNote = false, note })
	lines := strings.Split(plain(m), "\n")
	if !strings.Contains(lines[1], "ns shop · 3 workloads") || !strings.Contains(lines[2], "-A: this user may list only namespace shop") {
		t.Errorf("the scope note is not under the counts:\n%s", plain(m))
	}
}

func TestFleetKeyWithoutAFleet(t *testing.T) {
	// A picture of the cluster that cannot list its workloads: the
	// rollout stays, F says why.
	m := newTestModel(t, midRollout(), nil, 120, 30)
	m = send(m, press("F"))
	if s := plain(m); !strings.Contains(s, "deploy frontend") || !strings.Contains(s, "no fleet here") {
		t.Errorf("F without a fleet:\n%s", s)
	}
}

// esc in the History pane's diff closes the diff; only then does esc go
// back to the fleet.
func TestFleetEscClosesTheDiffFirst(t *testing.T) {
	m := newFleetModel(t, newFleetSource(), 120, 30, func(o *Options) { o.AllNamespaces = false })
	m = send(m, press("j"), press("enter")) // frontend
	m = send(m, press("shift+tab"), press("shift+tab"), press("k"), press("enter"))
	if s := plain(m); !strings.Contains(s, "History · diff") {
		t.Fatalf("no diff open:\n%s", s)
	}
	m = send(m, press("esc"))
	if s := plain(m); strings.Contains(s, "History · diff") || !strings.Contains(s, "deploy frontend") {
		t.Fatalf("esc did not close the diff alone:\n%s", s)
	}
	m = send(m, press("esc"))
	if s := plain(m); !strings.Contains(s, "ns shop · 3 workloads") {
		t.Errorf("the second esc did not go back to the fleet:\n%s", s)
	}
}

// The STATE column is as wide as the longest state word shown: a Rollout
// awaiting promotion says so whole where there is room.
func TestFleetStateColumnFitsTheLongestWord(t *testing.T) {
	src := newFleetSource()
	src.rows = append(src.rows, cluster.FleetRow{Namespace: "shop", Kind: kind.Rollout, Name: "front", Revision: 2,
		State: cluster.FleetPaused, Word: "awaiting promotion", Why: "waiting 4m at step 2/4 — promote to go on"})
	m := newFleetModel(t, src, 200, 30, nil)
	if s := plain(m); !strings.Contains(s, "awaiting promotion") {
		t.Fatalf("the Rollout's state word is cut:\n%s", s)
	}
}
