package fleet

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// scope is a namespace with one workload of each kind, most urgent first
// as the source ranks them.
func scope() *uitest.Source {
	return &uitest.Source{
		Status: cluster.WatchStatus{Synced: true, Connected: true},
		FleetRows: []cluster.FleetRow{
			{Namespace: "shop", Kind: kind.Deployment, Name: "ledger", Revision: 7, State: cluster.FleetFailed, Word: "failed",
				Why: "ProgressDeadlineExceeded", Desired: 4, Updated: 2, Available: 2, Images: []string{"app=ledger:2.0"}, From: []string{"app=ledger:1.9"}},
			{Namespace: "shop", Kind: kind.StatefulSet, Name: "db", Revision: 2, State: cluster.FleetStuck, Word: "stuck",
				Desired: 3, Updated: 1, Available: 3},
			{Namespace: "shop", Kind: kind.ReplicationController, Name: "web", State: cluster.FleetComplete, Word: "complete",
				Desired: 2, Updated: 2, Available: 2},
			{Namespace: "shop", Kind: kind.DaemonSet, Name: "agent", Revision: 3, State: cluster.FleetComplete, Word: "complete",
				Desired: 2, Updated: 2, Available: 2, Since: uitest.T0.Add(-time.Hour)},
		},
	}
}

func newFleet(t *testing.T, src *uitest.Source, acts screen.Actions, start bool) (*Page, *screen.Screen) {
	t.Helper()
	s := uitest.NewScreen(src, acts)
	p := New(s, "shop", "", "kind-dev", start)
	p.SetSize(100, 14)
	return p, s
}

func press(p *Page, keys ...string) {
	for _, k := range keys {
		p.Update(uitest.Press(k))
	}
}

// The fleet shows the scope and its counts by state, one row per workload
// with its kind, progress and state, and the selected row's why.
func TestRowsCountsAndWhy(t *testing.T) {
	p, _ := newFleet(t, scope(), nil, false)
	lines := uitest.Lines(p.View())
	if len(lines) != 14 {
		t.Fatalf("view is %d lines, want 14", len(lines))
	}
	if lines[0] != " ns shop · 4 workloads · 1 failed · 1 stuck · 2 complete" {
		t.Errorf("scope line = %q", lines[0])
	}
	out := strings.Join(lines, "\n")
	// An RC has no revisions: its REV is "-", never a revision 0.
	for _, want := range []string{"deploy ledger", "ledger:1.9 → 2.0", "████░░░░       2/2/4 ✖ failed", "sts    db",
		"rc     web             -  ", "ds     agent", "✔ complete", "shop deploy/ledger: ProgressDeadlineExceeded"} {
		if !strings.Contains(out, want) {
			t.Errorf("fleet lacks %q:\n%s", want, out)
		}
	}
}

// enter opens the row's page: a Deployment's rollout, the RC, the
// StatefulSet and the DaemonSet pages.
func TestEnterOpensTheRowsPage(t *testing.T) {
	p, s := newFleet(t, scope(), nil, false)
	want := []screen.Target{
		{Namespace: "shop", Deployment: "ledger"},
		{Namespace: "shop", Workload: "db", WorkloadKind: action.OnStatefulSet},
		{Namespace: "shop", RC: "web"},
		{Namespace: "shop", Workload: "agent", WorkloadKind: action.OnDaemonSet},
	}
	for i, w := range want {
		if i > 0 {
			press(p, "down")
		}
		press(p, "enter")
		if got, ok := s.Next(); !ok || got != w {
			t.Errorf("row %d: enter goes to %+v, want %+v", i, got, w)
		}
	}
}

// A rollout key on a Deployment's row opens its dialog over the fleet; on
// another kind's row it opens the row's page, where its keys are.
func TestActionKeysOnARow(t *testing.T) {
	p, s := newFleet(t, scope(), &uitest.Actions{}, false)
	press(p, "p")
	if got, _ := s.Next(); got != (screen.Target{Namespace: "shop", Deployment: "ledger", Action: action.Pause}) {
		t.Errorf("p on a Deployment: %+v", got)
	}
	press(p, "down", "p")
	if got, _ := s.Next(); got != (screen.Target{Namespace: "shop", Workload: "db", WorkloadKind: action.OnStatefulSet}) {
		t.Errorf("p on a StatefulSet: %+v", got)
	}
	// Without a cluster to act on the key says why.
	p, s = newFleet(t, scope(), nil, false)
	press(p, "p")
	if _, ok := s.Next(); ok || !strings.Contains(s.Toast, "no cluster") {
		t.Errorf("p without a cluster: toast %q", s.Toast)
	}
}

// / filters as it is typed; every key is text meanwhile, even the global
// ones; enter keeps the filter, esc clears it.
func TestFilter(t *testing.T) {
	p, s := newFleet(t, scope(), nil, false)
	s.IsGlobal = func(msg tea.KeyPressMsg) bool { return msg.String() == "?" }
	press(p, "/")
	if !p.Typing() {
		t.Fatal("/ did not start the filter")
	}
	press(p, "d", "b", "?")
	if _, ok := s.TakeGlobal(); ok {
		t.Error("? was taken from the filter line")
	}
	press(p, "backspace", "enter")
	if shown, all := p.Rows(); shown != 1 || all != 4 || p.Typing() {
		t.Errorf("filter db: %d of %d rows, typing %v", shown, all, p.Typing())
	}
	if out := uitest.Plain(p.View()); !strings.Contains(out, "/db  1 of 4") {
		t.Errorf("filter line missing:\n%s", out)
	}
	press(p, "/", "s", "t", "a", "t", "e", ":", "x")
	if out := uitest.Plain(p.View()); !strings.Contains(out, "unknown state") && !strings.Contains(out, "state") {
		t.Errorf("a bad state word is not explained:\n%s", out)
	}
	press(p, "esc")
	if shown, _ := p.Rows(); shown != 4 || p.Filter() != "" {
		t.Errorf("esc left %d rows, filter %q", shown, p.Filter())
	}
}

// The start rule: once the watch has listed the scope, its only workload
// opens directly; with several the fleet stays, and a key stops the rule.
func TestStartRule(t *testing.T) {
	// The root builds the fleet before the first read: the watch has not
	// listed anything yet.
	start := func(src *uitest.Source) (*Page, *screen.Screen) {
		src.Status = cluster.WatchStatus{}
		p, s := newFleet(t, src, nil, true)
		src.Status = cluster.WatchStatus{Synced: true, Connected: true}
		s.Read()
		return p, s
	}
	one := scope()
	one.FleetRows = one.FleetRows[2:3]
	p, s := start(one)
	p.Read()
	if got, ok := s.Next(); !ok || got.RC != "web" {
		t.Errorf("the only workload was not opened: %+v %v", got, ok)
	}
	p, s = start(scope())
	p.Read()
	if _, ok := s.Next(); ok {
		t.Error("with four workloads the fleet did not stay")
	}
	p, s = start(one)
	press(p, "j")
	p.Read()
	if _, ok := s.Next(); ok {
		t.Error("the start rule moved the operator after a key")
	}
}

// The header names the context and the fleet, the clock at its end; the
// footer names the scope keys.
func TestHeaderAndKeys(t *testing.T) {
	p, _ := newFleet(t, scope(), nil, false)
	head := uitest.Plain(strings.Join(p.Header(60, "clock 09:30:00"), "\n"))
	if len(p.Header(60, "")) != p.HeaderHeight(60) || !strings.HasPrefix(head, "rollscope ctx kind-dev  fleet") ||
		!strings.HasSuffix(head, "clock 09:30:00") {
		t.Errorf("header = %q", head)
	}
	var descs []string
	for _, b := range p.KeyMap().ShortHelp() {
		descs = append(descs, b.Help().Desc)
	}
	if got := strings.Join(descs, ", "); !strings.Contains(got, "open") || !strings.Contains(got, "ns NAME / ctx / a name") {
		t.Errorf("fleet keys: %s", got)
	}
	if p.Title() != "rollscope fleet" {
		t.Errorf("title %q", p.Title())
	}
}

// An empty namespace says where the workloads are.
func TestEmptyNamespaceNamesTheOthers(t *testing.T) {
	src := scope()
	s := uitest.NewScreen(src, nil)
	p := New(s, "billing", "", "kind-dev", false)
	p.SetSize(100, 10)
	if out := uitest.Plain(p.View()); !strings.Contains(out, "no workloads in namespace billing — :ns NAME shows another (shop), 0 all of them") {
		t.Errorf("empty namespace:\n%s", out)
	}
	p.SetNamespace("")
	if shown, _ := p.Rows(); shown != 4 || p.Namespace() != "" {
		t.Errorf("all namespaces: %d rows", shown)
	}
	if ns, ok := p.SelectedNamespace(); !ok || ns != "shop" {
		t.Errorf("selected namespace %q %v", ns, ok)
	}
}

// A fleet of one namespace says, under its scope line, what is urgent in
// the others the watch covers and the key that shows them; with nothing
// urgent elsewhere, or every namespace shown, it says nothing.
func TestHeaderCountsWhatIsUrgentElsewhere(t *testing.T) {
	src := scope()
	src.FleetRows = append(src.FleetRows,
		cluster.FleetRow{Namespace: "billing", Kind: kind.Deployment, Name: "ledger", State: cluster.FleetFailed, Word: "failed"},
		cluster.FleetRow{Namespace: "billing", Kind: kind.Deployment, Name: "invoices", State: cluster.FleetCrashLooping, Word: "crash-looping"},
		cluster.FleetRow{Namespace: "search", Kind: kind.Deployment, Name: "indexer", State: cluster.FleetStuck, Word: "stuck"},
		cluster.FleetRow{Namespace: "search", Kind: kind.Deployment, Name: "query", State: cluster.FleetPaused, Word: "paused"})
	p, _ := newFleet(t, src, nil, false)
	lines := uitest.Lines(p.View())
	if want := " 2 failing, 1 stuck in other namespaces — 0 shows all"; strings.TrimRight(lines[1], " ") != want {
		t.Errorf("the line under the scope = %q, want %q", lines[1], want)
	}
	if rows := strings.Join(lines, "\n"); strings.Contains(rows, "indexer") || strings.Contains(rows, "invoices") {
		t.Errorf("the fleet of shop shows other namespaces' rows:\n%s", rows)
	}
	p.SetNamespace("")
	if out := p.View(); strings.Contains(out, "other namespaces") {
		t.Errorf("every namespace shown, yet it counts others:\n%s", out)
	}
	p, _ = newFleet(t, scope(), nil, false)
	if out := p.View(); strings.Contains(out, "other namespaces") {
		t.Errorf("nothing elsewhere, yet it counts others:\n%s", out)
	}
	// Narrow: the hint survives the cut.
	p, _ = newFleet(t, src, nil, false)
	p.SetSize(40, 14)
	if l := uitest.Lines(p.View())[1]; !strings.Contains(l, "— 0 shows all") {
		t.Errorf("at 40 columns the hint is cut: %q", l)
	}
}

// A workload of 150,000 replicas has figures wider than the column's
// "100/100/100": they widen it rather than being cut ("75000/140000/1…"
// would be a false figure); and a longer name widens NAME. Rows drawn
// before either came line up with them.
func TestLargeFiguresWidenTheColumn(t *testing.T) {
	src := scope()
	p, s := newFleet(t, src, nil, false)
	p.SetSize(160, 14)
	p.View()
	for _, r := range []cluster.FleetRow{
		{Namespace: "shop", Kind: kind.Deployment, Name: "api", Revision: 2, State: cluster.FleetRolling, Word: "rolling",
			Desired: 150000, Updated: 75000, Available: 140000},
		{Namespace: "shop", Kind: kind.Deployment, Name: "payments-gateway-eu-west", Revision: 1, State: cluster.FleetComplete,
			Word: "complete", Desired: 1, Updated: 1, Available: 1},
		// A service deployed a few times a day for years: its revision
		// whole, not "124…".
		{Namespace: "shop", Kind: kind.Deployment, Name: "checkout", Revision: 12408, State: cluster.FleetComplete,
			Word: "complete", Desired: 3, Updated: 3, Available: 3},
	} {
		src.FleetRows = append(src.FleetRows, r)
		s.Read()
		p.Read()
		out := uitest.Plain(p.View())
		if !strings.Contains(out, " 75000/140000/150000 ") {
			t.Fatalf("the large workload's figures are not whole:\n%s", out)
		}
		if r.Revision > 9999 && !regexp.MustCompile(`checkout +12408 `).MatchString(out) {
			t.Fatalf("revision 12408 is not whole:\n%s", out)
		}
		bars := map[int]int{}
		for _, line := range strings.Split(out, "\n") {
			if i := strings.IndexAny(line, "█▒░"); i >= 0 && strings.Contains(line, "/") {
				bars[len([]rune(line[:i]))]++
			}
		}
		if len(bars) != 1 {
			t.Errorf("with %s the progress bars start at different columns %v:\n%s", r.Name, bars, out)
		}
	}
}
