package keys

import (
	"charm.land/bubbles/v2/key"

	"rollscope/model/action"
)

// Group is one titled column of the help overlay.
type Group struct {
	Title    string
	Bindings []key.Binding
	Names    []string // config-file names, parallel to Bindings
}

// ownInGroup are the console's own keys shown in an action group, first.
var ownInGroup = map[string][]string{action.GroupNodes: {"mark-node"}}

// Groups are the help overlay's columns: the console's own keys, then one
// group per help group of the specs, in spec order.
func (k *Map) Groups() []Group {
	group := func(title string, names ...string) Group {
		g := Group{Title: title, Names: names}
		for _, n := range names {
			g.Bindings = append(g.Bindings, *k.Binding(n))
		}
		return g
	}
	out := []Group{
		group("Global", "help", "quit", "next-pane", "prev-pane", "command", "filter", "select", "back"),
		group("Fleet", "fleet", "all-namespaces"),
		group("Move", "up", "down", "page-up", "page-down", "top", "bottom"),
		group("Clock (embedded)", "faster", "slower", "pause-clock"),
	}
	var titles []string
	names := map[string][]string{}
	for _, s := range k.specs {
		if _, seen := names[s.Group]; !seen {
			titles = append(titles, s.Group)
			names[s.Group] = ownInGroup[s.Group]
		}
		names[s.Group] = append(names[s.Group], string(s.Name))
	}
	for _, t := range titles {
		out = append(out, group(t, names[t]...))
	}
	return out
}

// ShortHelp is the footer's global part.
func (k Map) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.NextPane, k.Command, k.Filter, k.Quit}
}

// FullHelp is every binding, grouped as the help overlay shows them.
func (k Map) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range k.Groups() {
		out = append(out, g.Bindings)
	}
	return out
}

// Pane is a pane's or an overlay's own help.KeyMap: a few bindings.
type Pane []key.Binding

func (p Pane) ShortHelp() []key.Binding  { return p }
func (p Pane) FullHelp() [][]key.Binding { return [][]key.Binding{p} }

// Hints are an overlay's footer: key and what it does, in pairs ("y",
// "send", "n/esc", "cancel").
func Hints(pairs ...string) Pane {
	out := make(Pane, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, key.NewBinding(key.WithKeys(pairs[i]), key.WithHelp(pairs[i], pairs[i+1])))
	}
	return out
}
