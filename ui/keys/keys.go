// Package keys is the console's key map as data: the navigation and global
// keys of the console itself, and one binding per action of
// action.Specs() — its default keys, help line, help group and config-file
// name all come from the spec. The help overlay and the footer are
// generated from the map, the config file rebinds it by name, and a binding
// that does nothing says why (no cluster, --read-only, a permission the
// cluster denies).
package keys

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
)

// Reasons an action key does nothing.
const (
	// NoCluster is why with nothing to send the actions to.
	NoCluster = "no cluster to act on"
	// ReadOnly is why every write is off with --read-only.
	ReadOnly = "read-only: rollscope was started with --read-only"
	// Replay is why every action is off in a replay.
	Replay = "replay: this is a recording, not a cluster"
)

// Refuse turns every action key off for reason.
func (k *Map) Refuse(reason string) {
	for _, s := range k.specs {
		k.Disable(string(s.Name), reason)
	}
}

// Map is every key the console answers to.
type Map struct {
	Help, Quit, NextPane, PrevPane key.Binding
	Filter, Back, Select, Command  key.Binding
	Up, Down, PageUp, PageDown     key.Binding
	Top, Bottom                    key.Binding
	Faster, Slower, PauseClock     key.Binding
	// PrevChange and NextChange step a replay to the recorded change
	// before or after the one shown.
	PrevChange, NextChange key.Binding
	// RehearseHere forks a replay into an embedded rehearsal from the
	// moment shown.
	RehearseHere key.Binding
	// MarkNode marks nodes in the Nodes pane for c, C and d. It sends
	// nothing, so it is the console's own key rather than an action.
	MarkNode key.Binding
	// TimelineFilter cycles what the Timeline pane shows.
	TimelineFilter key.Binding
	// Fleet opens the fleet (every workload's rollout) from anywhere;
	// AllNamespaces toggles it between one namespace and all of them
	// (k9s's 0).
	Fleet, AllNamespaces key.Binding
	// GroupClusters, in a fleet of several clusters, makes the same
	// workload in each one row (in one cluster it is Top's g).
	GroupClusters key.Binding

	// actions are the bindings of specs, in the same order.
	specs   []action.Spec
	actions []key.Binding
	// disabled says why a binding does nothing, by name; the help overlay
	// shows it and pressing the key repeats it.
	disabled map[string]string
}

// binding builds a binding whose help shows its keys.
func binding(desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(keys, "/"), desc))
}

// Default is the key map with no config file: the console's own keys, and
// each action's keys and help line from its spec. The actions are disabled
// until Gate finds a cluster to send them to.
func Default() Map {
	k := Map{
		Help:       binding("help", "?"),
		Quit:       binding("quit", "q", "ctrl+c"),
		NextPane:   binding("next pane", "tab"),
		PrevPane:   binding("previous pane", "shift+tab"),
		Filter:     binding("filter deployments", "/"),
		Back:       binding("back / cancel", "esc"),
		Select:     binding("select / details", "enter"),
		Command:    binding("switch deployment", ":"),
		Up:         binding("up", "up", "k"),
		Down:       binding("down", "down", "j"),
		PageUp:     binding("page up", "pgup"),
		PageDown:   binding("page down", "pgdown"),
		Top:        binding("top", "home", "g"),
		Bottom:     binding("bottom", "end", "G"),
		Faster:     binding("clock faster", "+"),
		Slower:     binding("clock slower", "-"),
		PauseClock: binding("pause clock", "space"),
		PrevChange: binding("replay: previous change", "["),
		NextChange: binding("replay: next change", "]"),
		MarkNode:   binding("mark node for c/C/d", "m"),

		TimelineFilter: binding("filter: all / actions / scaling / warnings", "f"),
		Fleet:          binding("fleet: every rollout", "F"),
		AllNamespaces:  binding("fleet: all namespaces / one", "0"),
		GroupClusters:  binding("fleet: group across clusters / not", "g"),
		specs:          action.Specs(),
		disabled:       map[string]string{},
	}
	k.RehearseHere = binding("replay: rehearse from here (fork the embedded cluster)", "f5")
	for _, s := range k.specs {
		k.actions = append(k.actions, binding(s.Help, s.Keys...))
	}
	for _, s := range k.specs {
		k.Disable(string(s.Name), NoCluster)
	}
	return k
}

// Clone is a copy whose bindings and reasons can change without changing
// k's.
func (k Map) Clone() Map {
	c := k
	c.actions = append([]key.Binding(nil), k.actions...)
	c.disabled = make(map[string]string, len(k.disabled))
	for n, why := range k.disabled {
		c.disabled[n] = why
	}
	return c
}

// named is one binding with its config-file name.
type named struct {
	Name string
	B    *key.Binding
}

// names are every binding by its config-file name: the console's own keys,
// then the actions in spec order.
func (k *Map) names() []named {
	out := []named{
		{"help", &k.Help}, {"quit", &k.Quit}, {"next-pane", &k.NextPane}, {"prev-pane", &k.PrevPane},
		{"filter", &k.Filter}, {"back", &k.Back}, {"select", &k.Select}, {"command", &k.Command},
		{"up", &k.Up}, {"down", &k.Down}, {"page-up", &k.PageUp}, {"page-down", &k.PageDown},
		{"top", &k.Top}, {"bottom", &k.Bottom},
		{"faster", &k.Faster}, {"slower", &k.Slower}, {"pause-clock", &k.PauseClock},
		{"prev-change", &k.PrevChange}, {"next-change", &k.NextChange}, {"rehearse-here", &k.RehearseHere},
		{"mark-node", &k.MarkNode}, {"timeline-filter", &k.TimelineFilter},
		{"fleet", &k.Fleet}, {"all-namespaces", &k.AllNamespaces}, {"group-clusters", &k.GroupClusters},
	}
	for i, s := range k.specs {
		out = append(out, named{string(s.Name), &k.actions[i]})
	}
	return out
}

// Binding is the binding of a config-file name, nil when there is none.
func (k *Map) Binding(name string) *key.Binding {
	for _, a := range k.names() {
		if a.Name == name {
			return a.B
		}
	}
	return nil
}

// Action is the binding of action n.
func (k *Map) Action(n action.Name) key.Binding {
	for i, s := range k.specs {
		if s.Name == n {
			return k.actions[i]
		}
	}
	return key.Binding{}
}

// Bound reports whether msg is one of action n's keys, enabled or not: a
// key that means something else where it is pressed (x stops a roll in the
// Nodes pane) must not fall through to its other meaning when disabled.
func (k *Map) Bound(n action.Name, msg tea.KeyPressMsg) bool {
	for _, bound := range k.Action(n).Keys() {
		if bound == msg.String() {
			return true
		}
	}
	return false
}

// Pressed finds the enabled action on one kind of object bound to msg.
func (k *Map) Pressed(msg tea.KeyPressMsg, on action.Object) (action.Name, bool) {
	for i, s := range k.specs {
		if s.On == on && key.Matches(msg, k.actions[i]) {
			return s.Name, true
		}
	}
	return "", false
}

// Gate decides which action keys work: none without a cluster to act on
// (acting false: Default's reason stays), no write with --read-only, none
// the cluster denies (by action name), and the others.
func (k *Map) Gate(acting, readOnly bool, denied map[action.Name]string) {
	for _, s := range k.specs {
		name := string(s.Name)
		switch {
		case readOnly && s.Writes:
			k.Disable(name, ReadOnly)
		case !acting:
		case denied[s.Name] != "":
			k.Disable(name, denied[s.Name])
		default:
			k.Enable(name)
		}
	}
}

// Disable turns the key named name off and records why; pressing it then
// shows the reason instead of doing nothing silently.
func (k *Map) Disable(name, reason string) {
	b := k.Binding(name)
	if b == nil {
		return
	}
	if k.disabled == nil {
		k.disabled = map[string]string{}
	}
	b.SetEnabled(false)
	k.disabled[name] = reason
}

// Enable turns the key named name back on.
func (k *Map) Enable(name string) {
	if b := k.Binding(name); b != nil {
		b.SetEnabled(true)
		delete(k.disabled, name)
	}
}

// DisabledReason says why the key named name is off, "" when it is on.
func (k Map) DisabledReason(name string) string { return k.disabled[name] }

// DisabledFor finds a disabled key bound to msg: its help and why it is
// off.
func (k *Map) DisabledFor(msg tea.KeyPressMsg) (desc, reason string, ok bool) {
	pressed := msg.String()
	for _, a := range k.names() {
		if a.B.Enabled() {
			continue
		}
		for _, bound := range a.B.Keys() {
			if bound == pressed {
				return a.B.Help().Desc, k.disabled[a.Name], true
			}
		}
	}
	return "", "", false
}
