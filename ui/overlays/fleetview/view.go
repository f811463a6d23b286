// Package fleetview is the fleet: every workload in the scope on one screen,
// one row each, ranked by how much its rollout needs a human (failed, stuck,
// crash-looping, paused, canary, rolling, node roll, complete). It is drawn in
// place of the panes and is the console's start screen when no workload is
// named. `/` filters it (cluster.ParseFleetFilter); enter, the action keys and
// the scope keys (F, 0, :ns, :ctx) are the root's, which reads the selected
// row here.
package fleetview

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
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

// View is the fleet.
type View struct {
	s    *screen.Screen
	w, h int
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
	// others are the other namespaces the watch knows of, read only
	// while the one shown is empty.
	others []string
	// cols are the table's columns for these rows.
	cols []draw.Column

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

var _ screen.Component[*View] = (*View)(nil)

// New is the fleet of namespace ("" for all) over s.
func New(s *screen.Screen, namespace, note string) *View {
	v := &View{s: s, namespace: namespace, note: note, paints: newPaints(s.Styles)}
	v.Read()
	return v
}

// Answers reports whether src can show a fleet.
func Answers(src screen.Source) bool {
	_, ok := src.(Source)
	return ok
}

// Namespace is the scope shown, "" for every namespace.
func (v *View) Namespace() string { return v.namespace }

// SetNamespace shows namespace ("" for all) from now on.
func (v *View) SetNamespace(namespace string) {
	v.namespace = namespace
	v.Read()
}

// Read reads the rows again; the root calls it with every refresh while
// the fleet is shown.
func (v *View) Read() {
	src, ok := v.s.Src.(Source)
	v.others = nil
	if !ok {
		v.all = nil
	} else {
		v.all = src.Fleet(v.namespace, v.s.Now)
		if len(v.all) == 0 && v.namespace != "" {
			// An empty namespace: say where the workloads are.
			for _, ns := range src.Namespaces() {
				if ns != v.namespace {
					v.others = append(v.others, ns)
				}
			}
		}
	}
	v.count = [fleetStates]int{}
	v.manyNamespaces = false
	nsW, nameW := 0, 0
	for i := range v.all {
		r := &v.all[i]
		if r.State >= 0 && int(r.State) < len(v.count) {
			v.count[r.State]++
		}
		if r.Namespace != v.all[0].Namespace {
			v.manyNamespaces = true
		}
		// Names are ASCII (DNS labels): their length is their width.
		nsW, nameW = max(nsW, len(r.Namespace)), max(nameW, len(r.Name))
	}
	v.cols = columns(v.manyNamespaces, nsW, nameW)
	v.apply()
}

// apply keeps the rows the filter matches, the cursor on the same
// workload when it is still there.
func (v *View) apply() {
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

func rowKey(r cluster.FleetRow) string { return r.Namespace + "/" + r.Ref() }

// Rows is how many workloads the fleet shows now (after the filter), and
// how many there are in the scope.
func (v *View) Rows() (shown, all int) { return len(v.rows), len(v.all) }

// All is every row in the scope, filter or not.
func (v *View) All() []cluster.FleetRow { return v.all }

// Selected is the row under the cursor.
func (v *View) Selected() (cluster.FleetRow, bool) {
	if len(v.rows) == 0 {
		return cluster.FleetRow{}, false
	}
	v.list.Clamp(len(v.rows))
	return v.rows[v.list.Cursor], true
}

// SetSize sizes the fleet to the body.
func (v *View) SetSize(w, h int) { v.w, v.h = w, h }

// Typing reports whether the filter line takes every key, text included.
func (v *View) Typing() bool { return v.typing }

// Takes reports whether msg is the fleet's own: every key while the filter
// is typed, else the movement keys, `/`, and esc while a filter is set.
func (v *View) Takes(msg tea.KeyPressMsg) bool {
	k := v.s.Keys
	if v.typing {
		return true
	}
	if key.Matches(msg, k.Back) {
		return v.filterText != ""
	}
	return key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter)
}

// Update moves the cursor, edits the filter, and — while a filter is set —
// clears it on esc.
func (v *View) Update(msg tea.Msg) (*View, tea.Cmd) {
	k := v.s.Keys
	if press, ok := msg.(tea.KeyPressMsg); ok && v.typing {
		v.edit(press)
		return v, nil
	}
	if press, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(press, k.Filter):
			v.typing = true
			return v, nil
		case key.Matches(press, k.Back):
			v.setFilter("")
			return v, nil
		}
	}
	if v.list.Move(msg, k, len(v.rows), func(i int) string { return rowKey(v.rows[i]) }) {
		v.moved = true
	}
	return v, nil
}

// edit is a key typed into the filter line: enter keeps the filter, esc
// drops it, anything else edits it and the rows follow at once.
func (v *View) edit(press tea.KeyPressMsg) {
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
func (v *View) setFilter(text string) {
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
func (v *View) Filter() string { return v.filterText }

// KeyMap is the fleet's keys for the footer: the filter line's while it is
// typed, else moving, opening, filtering and the scope.
func (v *View) KeyMap() help.KeyMap {
	k := v.s.Keys
	if v.typing {
		return keys.Hints("enter", "keep filter", "esc", "clear filter")
	}
	open, filter, all := k.Select, k.Filter, k.AllNamespaces
	open.SetHelp(open.Help().Key, "open")
	filter.SetHelp(filter.Help().Key, "filter")
	all.SetHelp(all.Help().Key, "all namespaces / one")
	out := keys.Pane{open, filter, all}
	if r, ok := v.Selected(); ok && r.Kind == cluster.FleetDeployment {
		for _, n := range []action.Name{action.SetImage, action.Pause, action.Resume, action.Undo} {
			out = append(out, k.Action(n))
		}
	}
	return out
}
