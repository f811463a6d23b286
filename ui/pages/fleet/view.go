// Package fleet is the fleet page: every workload in the scope on one
// screen, one row each, ranked by how much its rollout needs a human
// (failed, stuck, crash-looping, paused, canary, rolling, node roll,
// complete). It is the console's home page — its start screen when no
// workload is named (unless the scope holds exactly one, which then opens
// directly), F opens it from anywhere and esc goes back to it. `/` filters
// it (cluster.ParseFleetFilter); enter opens a row's page, and the rollout
// keys on a Deployment's row open the same dialogs the rollout page opens.
// The scope keys (0, :ns, :ctx) are the root's, which changes the scope
// shown here.
package fleet

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Source is what the fleet reads; cluster.Cluster answers it.
type Source interface {
	// Fleet is every workload in namespace ("" for all), sorted by
	// cluster.SortFleet.
	Fleet(namespace string, now time.Time) []cluster.FleetRow
	// Namespaces are the namespaces the watch knows of, sorted.
	Namespaces() []string
}

// Page is the fleet.
type Page struct {
	s    *screen.Screen
	w, h int
	// context is the kubeconfig context the header names.
	context string
	// startPending is set until the start rule has looked at the scope,
	// or the operator pressed a key.
	startPending bool
	// namespace is the scope shown, "" for every namespace.
	namespace string
	// note is the console's ScopeNote: what about the scope the operator
	// did not choose.
	note string

	all   []cluster.FleetRow // every row in the scope
	rows  []cluster.FleetRow // those the filter keeps
	count [fleetStates]int
	// manyNamespaces is set when the rows come from more than one
	// namespace: only then is the NAMESPACE column worth its width.
	manyNamespaces bool
	// clusters are each cluster's count and, when its picture is not
	// current or it could not be reached, why.
	clusters []clusterCount
	// stale are the clusters whose rows are only the last known.
	stale map[string]bool
	// merged is the buffer the clusters' rows are merged into, kept from
	// one read to the next.
	merged []cluster.FleetRow
	// grouped makes the same workload in several clusters one row
	// (cluster.GroupFleet).
	grouped bool
	// others are the other namespaces the watch knows of, read only
	// while the one shown is empty.
	others []string
	// elsewhere is what is urgent in the namespaces not shown, so that
	// narrowing the fleet never hides a failing rollout.
	elsewhere cluster.Urgent
	// cols are the table's columns for these rows; numsW is the width of
	// their widest updated/available/desired figures.
	cols  []draw.Column
	numsW int

	list draw.List
	// filterText is what was typed after `/`; typing is set while the
	// operator is still typing it. filterErr is ParseFleetFilter's
	// refusal, shown in place of the count.
	filterText string
	filter     cluster.FleetFilter
	filterErr  string
	typing     bool
	// moved is set once the operator has moved the cursor: from then on
	// it follows its workload as the ranking changes.
	moved bool

	paints paints
}

var _ screen.Home = (*Page)(nil)

// New is the fleet of namespace ("" for all) over s. start says it is the
// start screen, which opens the scope's only workload directly.
func New(s *screen.Screen, namespace, note, context string, start bool) *Page {
	v := &Page{s: s, namespace: namespace, note: note, context: context, startPending: start, paints: newPaints(s.Styles)}
	// The fleet is the page's only list: its cursor row is always the one
	// the keys act on, so it is always drawn.
	v.list.Focused = true
	v.Read()
	return v
}

// Answers reports whether src can show a fleet.
func Answers(src screen.Source) bool {
	_, ok := src.(Source)
	return ok
}

// Namespace is the scope shown, "" for every namespace.
func (v *Page) Namespace() string { return v.namespace }

// SetNamespace shows namespace ("" for all) from now on.
func (v *Page) SetNamespace(namespace string) {
	v.namespace = namespace
	v.read()
}

// Read reads the rows again; the root calls it with every refresh while
// the fleet is shown. The first time the watch has listed the scope and
// found workloads, the start rule opens the only one directly — in a
// console of one cluster: one asked for several is asked to compare
// them, and a cluster still connecting may hold more.
func (v *Page) Read() {
	v.read()
	if !v.startPending || !v.synced() || len(v.all) == 0 {
		// Nothing yet: the scenario may still be creating it.
		return
	}
	v.startPending = false
	if len(v.all) == 1 && !v.s.Several() {
		v.s.Go(Target(v.all[0]))
	}
}

func (v *Page) read() {
	v.others, v.elsewhere = nil, cluster.Urgent{}
	members := v.s.Clusters()
	lists := make([][]cluster.FleetRow, 0, len(members))
	v.clusters = v.clusters[:0]
	clear(v.stale)
	for _, mem := range members {
		src, ok := mem.Src.(Source)
		c := clusterCount{context: mem.Context, problem: mem.Why(v.s.Now)}
		if !ok {
			v.clusters = append(v.clusters, c)
			continue
		}
		rows := src.Fleet(v.namespace, v.s.Now)
		lists = append(lists, rows)
		c.rows, c.problem = len(rows), mem.Src.Watch().LastKnown(v.s.Now)
		if c.problem != "" {
			if v.stale == nil {
				v.stale = map[string]bool{}
			}
			v.stale[mem.Context] = true
		}
		c.urgent = cluster.UrgentIn(rows)
		v.clusters = append(v.clusters, c)
		if v.namespace != "" {
			// The watch may cover more than the namespace shown (-A,
			// a scenario spanning namespaces): count what it hides.
			u := cluster.UrgentOutside(src.Fleet("", v.s.Now), v.namespace)
			v.elsewhere.Failing, v.elsewhere.Stuck = v.elsewhere.Failing+u.Failing, v.elsewhere.Stuck+u.Stuck
		}
		if len(rows) == 0 && v.namespace != "" {
			// An empty namespace: say where the workloads are.
			for _, ns := range src.Namespaces() {
				if ns != v.namespace && !slices.Contains(v.others, ns) {
					v.others = append(v.others, ns)
				}
			}
		}
	}
	v.all = nil
	if len(lists) > 0 {
		v.all = cluster.MergeFleets(v.merged, lists...)
		if len(lists) > 1 {
			v.merged = v.all // the next read's merge overwrites it
		}
	}
	if v.grouped && len(lists) > 1 {
		v.all = cluster.GroupFleet(v.all)
	}
	if len(v.all) > 0 {
		// Another cluster's rows may name the namespace: it is not empty.
		v.others = nil
	}
	v.count = [fleetStates]int{}
	v.manyNamespaces = false
	var w widest
	for i := range v.all {
		r := &v.all[i]
		if r.State >= 0 && int(r.State) < len(v.count) {
			v.count[r.State]++
		}
		if r.Namespace != v.all[0].Namespace {
			v.manyNamespaces = true
		}
		// Names are ASCII (DNS labels): their length is their width.
		w.namespace, w.name, w.cluster = max(w.namespace, len(r.Namespace)), max(w.name, len(r.Name)), max(w.cluster, len(r.Cluster))
		w.state = max(w.state, draw.WidthOf(r.Word))
		w.figures = max(w.figures, figuresWidth(*r))
		w.revision = max(w.revision, draw.DigitsOf(r.Revision))
	}
	v.numsW = w.figures
	v.cols = columns(v.s.Several(), v.grouped && len(lists) > 1, v.manyNamespaces, w)
	v.apply()
}

// synced reports whether every cluster has listed its workloads, or
// could not be reached: only then is a workload the scope's only one.
func (v *Page) synced() bool {
	for _, m := range v.s.Clusters() {
		if m.Problem == "" && !m.Src.Watch().Synced {
			return false
		}
	}
	return true
}

// apply keeps the rows the filter matches, the cursor on the same
// workload when it is still there.
func (v *Page) apply() {
	v.rows = v.rows[:0]
	for _, r := range v.all {
		if v.filter.Match(r) {
			v.rows = append(v.rows, r)
		}
	}
	if !v.moved {
		// Until the operator moves, the cursor stays on the most urgent
		// row, whatever rose to the top since.
		v.list.Cursor, v.list.Selected = 0, ""
	}
	v.list.Follow(len(v.rows), func(i int) string { return rowKey(v.rows[i]) })
}

// rowKey names a row's workload; a grouped row's is its clusters', whichever
// is the most urgent.
func rowKey(r cluster.FleetRow) string {
	if r.Others > 0 {
		return "*/" + r.Namespace + "/" + r.Ref()
	}
	return r.Cluster + "/" + r.Namespace + "/" + r.Ref()
}

// Rows is how many workloads the fleet shows now (after the filter), and
// how many there are in the scope.
func (v *Page) Rows() (shown, all int) { return len(v.rows), len(v.all) }

// All is every row in the scope, filter or not.
func (v *Page) All() []cluster.FleetRow { return v.all }

// Selected is the row under the cursor.
func (v *Page) Selected() (cluster.FleetRow, bool) {
	if len(v.rows) == 0 {
		return cluster.FleetRow{}, false
	}
	v.list.Clamp(len(v.rows))
	return v.rows[v.list.Cursor], true
}

// SetSize sizes the fleet to the body.
func (v *Page) SetSize(w, h int) { v.w, v.h = w, h }

// Typing reports whether the filter line takes every key, text included.
func (v *Page) Typing() bool { return v.typing }

// takes reports whether msg is the list's: every key while the filter is
// typed, else the movement keys, `/`, and esc while a filter is set.
func (v *Page) takes(msg tea.KeyPressMsg) bool {
	k := v.s.Keys
	if v.typing {
		return true
	}
	if key.Matches(msg, k.Back) {
		return v.filterText != ""
	}
	return key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter)
}

// Update handles the fleet's keys and the mouse wheel: the list's and the
// filter's first, then the console's own keys (Global), then enter, which
// opens the row's page, and the rollout keys, which on a Deployment's row
// open its dialog over the fleet and on another kind's row open its page,
// where they say what they do.
func (v *Page) Update(msg tea.Msg) (screen.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		// The operator has taken over: the start rule no longer moves
		// them.
		v.startPending = false
		if !v.typing && v.s.Several() && key.Matches(msg, v.s.Keys.GroupClusters) {
			v.grouped = !v.grouped
			v.read()
			return v, nil
		}
		if v.typing || v.takes(msg) {
			v.move(msg)
			return v, nil
		}
		if !v.s.Global(msg) {
			v.key(msg)
		}
	case tea.MouseWheelMsg:
		v.move(msg)
	}
	return v, nil
}

func (v *Page) key(msg tea.KeyPressMsg) {
	row, haveRow := v.Selected()
	if haveRow {
		// The row's keys are its cluster's: what its RBAC allows there,
		// sent there.
		v.s.Focus(row.Cluster)
	}
	k := v.s.Keys
	if key.Matches(msg, k.Select) {
		if haveRow {
			v.s.Go(Target(row))
		}
		return
	}
	// A StatefulSet's, DaemonSet's or Rollout's row takes its own kind's
	// keys (P on a Rollout promotes it): its page opens on the action's
	// confirmation.
	if haveRow && row.Kind != kind.Deployment && row.Kind != kind.ReplicationController {
		if act, ok := k.Pressed(msg, row.Kind); ok {
			t := Target(row)
			t.Action = act
			v.s.Go(t)
			return
		}
	}
	if act, ok := k.Pressed(msg, action.OnDeployment); ok && haveRow {
		t := Target(row)
		if row.Kind == kind.Deployment {
			t.Action = act
		}
		v.s.Go(t)
		return
	}
	v.s.SayDisabled(msg)
}

// Target is where a row leads: a Deployment's rollout, an RC's rolling
// update view, another kind's page.
func Target(r cluster.FleetRow) screen.Target {
	t := screen.Target{Cluster: r.Cluster, Namespace: r.Namespace}
	switch r.Kind {
	case kind.Deployment:
		t.Deployment = r.Name
	case kind.ReplicationController:
		t.RC = r.Name
	default:
		t.Workload, t.WorkloadKind = r.Name, r.Kind
	}
	return t
}

// move moves the cursor, edits the filter, and — while a filter is set —
// clears it on esc.
func (v *Page) move(msg tea.Msg) {
	k := v.s.Keys
	if press, ok := msg.(tea.KeyPressMsg); ok && v.typing {
		v.edit(press)
		return
	}
	if press, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(press, k.Filter):
			v.typing = true
			return
		case key.Matches(press, k.Back):
			v.setFilter("")
			return
		}
	}
	if v.list.Move(msg, k, len(v.rows), func(i int) string { return rowKey(v.rows[i]) }) {
		v.moved = true
	}
}

// edit is a key typed into the filter line: enter keeps the filter, esc
// drops it, anything else edits it and the rows follow at once.
func (v *Page) edit(press tea.KeyPressMsg) {
	switch press.Code {
	case tea.KeyEnter:
		v.typing = false
	case tea.KeyEscape:
		v.typing = false
		v.setFilter("")
	case tea.KeyBackspace:
		if r := []rune(v.filterText); len(r) > 0 {
			v.setFilter(string(r[:len(r)-1]))
		}
	default:
		if press.Text != "" {
			v.setFilter(v.filterText + press.Text)
		}
	}
}

// setFilter reads text as a filter. A filter that does not parse (an
// unknown state word) keeps the last one that did, and says why.
func (v *Page) setFilter(text string) {
	v.filterText = text
	f, err := cluster.ParseFleetFilter(text)
	if err != nil {
		v.filterErr = err.Error()
		return
	}
	v.filter, v.filterErr = f, ""
	v.apply()
}

// Filter is the text typed after `/`.
func (v *Page) Filter() string { return v.filterText }

// KeyMap is the fleet's keys for the footer: the filter line's while it is
// typed, else moving, opening, filtering, the scope, and the global keys
// that work on it.
func (v *Page) KeyMap() help.KeyMap {
	k := v.s.Keys
	if v.typing {
		// Every key is text then: only the filter line's keys work.
		return keys.Hints("enter", "keep filter", "esc", "clear filter")
	}
	open, filter, all := k.Select, k.Filter, k.AllNamespaces
	open.SetHelp(open.Help().Key, "open")
	filter.SetHelp(filter.Help().Key, "filter")
	all.SetHelp(all.Help().Key, "all namespaces / one")
	out := keys.Pane{open, filter, all}
	if v.s.Several() {
		group := k.GroupClusters
		group.SetHelp(group.Help().Key, "group clusters / not")
		out = append(out, group)
	}
	if r, ok := v.Selected(); ok && r.Kind == kind.Deployment {
		for _, n := range []action.Name{action.SetImage, action.Pause, action.Resume, action.Undo} {
			out = append(out, k.Action(n))
		}
	}
	// In the fleet, : is mostly the scope: say so.
	cmd := k.Command
	cmd.SetHelp(cmd.Help().Key, "ns NAME / ctx / a name")
	return append(out, k.Help, cmd, k.Quit)
}

// SelectedNamespace is the namespace of the row under the cursor.
func (v *Page) SelectedNamespace() (string, bool) {
	r, ok := v.Selected()
	return r.Namespace, ok
}

// Header is the fleet's top line: the context and the clock. The fleet
// draws its own scope and counts under it.
func (v *Page) Header(w int, clock string) []string {
	st := v.s.Styles
	// Narrow, the clock goes first (last when it is held or paused: that
	// is a badge), then the context and the program's name; "fleet" and
	// READ-ONLY stay.
	clockDrop := 3
	if v.s.ClockHeld || v.s.ClockPaused {
		clockDrop = 0
	}
	parts := []draw.Part{
		{Text: st.AppTitle.Render("rollscope") + " ", Drop: 1},
		{Text: st.Label.Render("ctx") + " " + st.Text.Render(v.contexts()) + "  ", Drop: 2},
		{Text: st.Accent.Render("fleet")},
	}
	if v.s.ReadOnly {
		parts = append(parts, draw.Part{Text: " " + st.Badge.Render(" READ-ONLY ")})
	}
	if clock != "" {
		parts = append(parts, draw.Part{Text: clock, Drop: clockDrop, Right: true})
	}
	return []string{draw.Parts(parts, w)}
}

// HeaderHeight is Header's one line.
func (v *Page) HeaderHeight(int) int { return 1 }

// Title is the window's title on the fleet.
func (v *Page) Title() string { return "rollscope fleet" }

// Writes is false: the fleet's dialogs are overlays, which the root asks.
func (v *Page) Writes() bool { return false }

// contexts names the clusters shown: the one, or each, joined by commas.
func (v *Page) contexts() string {
	if !v.s.Several() {
		return v.context
	}
	names := make([]string, len(v.s.Members))
	for i, m := range v.s.Members {
		names[i] = m.Context
	}
	return strings.Join(names, ",")
}
