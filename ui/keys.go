package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMap is every key the console answers to, as data: the help overlay and
// the footer are generated from it, and the config file rebinds it by action
// name (see actionNames).
type KeyMap struct {
	Help, Quit, NextPane, PrevPane   key.Binding
	Filter, Back, Select, Command    key.Binding
	Up, Down, PageUp, PageDown       key.Binding
	Top, Bottom                      key.Binding
	Faster, Slower, PauseClock       key.Binding
	SetImage, SetEnv, Scale, Restart key.Binding
	Pause, Resume, Undo, Abort       key.Binding
	Cordon, Uncordon, Drain          key.Binding
	RollGroup, NextStep              key.Binding
	// MarkNode, PauseRoll and StopRoll belong to the Nodes pane: there
	// space and x steer the roll, elsewhere they keep their global
	// meaning (pause the clock, abort the rollout).
	MarkNode, PauseRoll, StopRoll key.Binding

	// disabled says why a binding does nothing, by action name; the help
	// overlay shows it and pressing the key repeats it.
	disabled map[string]string
}

// notYet is why an action key does nothing yet.
const notYet = "not yet available"

// DefaultKeyMap is the key map of ARCHITECTURE.md "Default keys". The actions
// that change the cluster are listed but disabled until they land.
func DefaultKeyMap() KeyMap {
	b := func(desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(keys, "/"), desc))
	}
	k := KeyMap{
		Help:       b("help", "?"),
		Quit:       b("quit", "q", "ctrl+c"),
		NextPane:   b("next pane", "tab"),
		PrevPane:   b("previous pane", "shift+tab"),
		Filter:     b("filter deployments", "/"),
		Back:       b("back / cancel", "esc"),
		Select:     b("select / details", "enter"),
		Command:    b("switch deployment", ":"),
		Up:         b("up", "up", "k"),
		Down:       b("down", "down", "j"),
		PageUp:     b("page up", "pgup"),
		PageDown:   b("page down", "pgdown"),
		Top:        b("top", "home", "g"),
		Bottom:     b("bottom", "end", "G"),
		Faster:     b("clock faster", "+"),
		Slower:     b("clock slower", "-"),
		PauseClock: b("pause clock", "space"),
		SetImage:   b("set image", "i"),
		SetEnv:     b("set env", "e"),
		Scale:      b("scale", "s"),
		Restart:    b("restart", "R"),
		Pause:      b("pause rollout", "p"),
		Resume:     b("resume rollout", "r"),
		Undo:       b("undo to revision", "u"),
		Abort:      b("abort rollout", "x"),
		Cordon:     b("cordon node", "c"),
		Uncordon:   b("uncordon node", "C"),
		Drain:      b("drain node", "d"),
		RollGroup:  b("roll node group", "D"),
		NextStep:   b("next node (stepped roll)", "n"),
		MarkNode:   b("mark node for c/C/d", "m"),
		PauseRoll:  b("pause/resume roll in Nodes", "space"),
		StopRoll:   b("stop roll in Nodes", "x"),
		disabled:   map[string]string{},
	}
	for _, name := range []string{"set-image", "set-env", "scale", "restart", "pause", "resume",
		"undo", "abort", "cordon", "uncordon", "drain", "roll-group", "next-step", "pause-roll", "stop-roll"} {
		k.Disable(name, notYet)
	}
	return k
}

// actionNames maps the config file's action names to the bindings.
func (k *KeyMap) actionNames() []struct {
	Name string
	B    *key.Binding
} {
	return []struct {
		Name string
		B    *key.Binding
	}{
		{"help", &k.Help}, {"quit", &k.Quit}, {"next-pane", &k.NextPane}, {"prev-pane", &k.PrevPane},
		{"filter", &k.Filter}, {"back", &k.Back}, {"select", &k.Select}, {"command", &k.Command},
		{"up", &k.Up}, {"down", &k.Down}, {"page-up", &k.PageUp}, {"page-down", &k.PageDown},
		{"top", &k.Top}, {"bottom", &k.Bottom},
		{"faster", &k.Faster}, {"slower", &k.Slower}, {"pause-clock", &k.PauseClock},
		{"set-image", &k.SetImage}, {"set-env", &k.SetEnv}, {"scale", &k.Scale}, {"restart", &k.Restart},
		{"pause", &k.Pause}, {"resume", &k.Resume}, {"undo", &k.Undo}, {"abort", &k.Abort},
		{"cordon", &k.Cordon}, {"uncordon", &k.Uncordon}, {"drain", &k.Drain},
		{"roll-group", &k.RollGroup}, {"next-step", &k.NextStep},
		{"mark-node", &k.MarkNode}, {"pause-roll", &k.PauseRoll}, {"stop-roll", &k.StopRoll},
	}
}

func (k *KeyMap) binding(name string) *key.Binding {
	for _, a := range k.actionNames() {
		if a.Name == name {
			return a.B
		}
	}
	return nil
}

// Disable turns the action off and records why; pressing its key then
// shows the reason instead of doing nothing silently.
func (k *KeyMap) Disable(action, reason string) {
	b := k.binding(action)
	if b == nil {
		return
	}
	if k.disabled == nil {
		k.disabled = map[string]string{}
	}
	b.SetEnabled(false)
	k.disabled[action] = reason
}

// Enable turns an action back on.
func (k *KeyMap) Enable(action string) {
	if b := k.binding(action); b != nil {
		b.SetEnabled(true)
		delete(k.disabled, action)
	}
}

// DisabledReason says why the action is disabled, "" when it is enabled.
func (k KeyMap) DisabledReason(action string) string { return k.disabled[action] }

// disabledFor finds a disabled action bound to the pressed key.
func (k *KeyMap) disabledFor(msg tea.KeyPressMsg) (desc, reason string, ok bool) {
	pressed := msg.String()
	for _, a := range k.actionNames() {
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

// helpGroup is one titled column of the help overlay.
type helpGroup struct {
	Title    string
	Bindings []key.Binding
	Actions  []string // action names, parallel to Bindings
}

func (k *KeyMap) groups() []helpGroup {
	g := func(title string, names ...string) helpGroup {
		hg := helpGroup{Title: title, Actions: names}
		for _, n := range names {
			hg.Bindings = append(hg.Bindings, *k.binding(n))
		}
		return hg
	}
	return []helpGroup{
		g("Global", "help", "quit", "next-pane", "prev-pane", "command", "filter", "select", "back"),
		g("Move", "up", "down", "page-up", "page-down", "top", "bottom"),
		g("Clock (embedded)", "faster", "slower", "pause-clock"),
		g("Rollout", "set-image", "set-env", "scale", "restart", "pause", "resume", "undo", "abort"),
		g("Nodes", "mark-node", "cordon", "uncordon", "drain", "roll-group", "next-step", "pause-roll", "stop-roll"),
	}
}

// ShortHelp is the footer's global part.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.NextPane, k.Command, k.Filter, k.Quit}
}

// FullHelp is every enabled binding, grouped as the help overlay shows them.
func (k KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range k.groups() {
		out = append(out, g.Bindings)
	}
	return out
}

// paneKeys is a pane's own help.KeyMap.
type paneKeys []key.Binding

func (p paneKeys) ShortHelp() []key.Binding  { return p }
func (p paneKeys) FullHelp() [][]key.Binding { return [][]key.Binding{p} }
