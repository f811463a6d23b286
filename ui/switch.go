package ui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/ui/screen"
)

// Switch is a scope the operator asked for that the running console cannot
// show by itself: another namespace than the one watched, every namespace,
// or another kubeconfig context. The console quits with it (Model.Switch),
// and the command starts the console again, watching the new scope, on the
// same cluster (the embedded one keeps running).
type Switch struct {
	// Namespace is the namespace to watch; ignored with AllNamespaces.
	Namespace     string
	AllNamespaces bool
	// Context is the kubeconfig context to connect to — several joined
	// by commas; "" keeps the current ones.
	Context string
	// Fleet asks for the scope's fleet (0, :ns), shown whatever it holds;
	// a :ctx starts on the context as --context does, opening its only
	// workload.
	Fleet bool
	// Rehearse asks to fork the replay shown into an embedded rehearsal
	// from its moment (F5): the scope is kept.
	Rehearse bool
}

// Switch reports the scope the console quit to switch to; false when it
// quit for good.
func (m Model) Switch() (Switch, bool) {
	if m.scope.switchTo == nil {
		return Switch{}, false
	}
	return *m.scope.switchTo, true
}

// scope is what the console watches and may switch to. The scope keys (0,
// :ns, :ctx) filter the fleet when the watch covers the scope asked for,
// and otherwise quit with a Switch for cmd to watch the new one.
type scope struct {
	// watchAll is set when the watch covers every namespace (-A);
	// namespace is the console's own; contexts are the kubeconfig's (or
	// an embedded scenario's clusters), nil for one embedded cluster;
	// context is the current one.
	watchAll  bool
	namespace string
	context   string
	contexts  []string
	// scenario is set when the contexts are an embedded scenario's
	// clusters, not a kubeconfig's.
	scenario bool
	// switchTo is set when the console quits to watch another scope.
	switchTo *Switch
}

// toggled is what 0 asks for on home: every namespace, or back to one —
// the console's namespace, else the selected row's, else shown's (the
// Deployment shown).
func (sc *scope) toggled(home screen.Home, shown string) screen.Scope {
	if home.Namespace() != "" {
		return screen.Scope{All: true}
	}
	ns := sc.namespace
	if row, ok := home.SelectedNamespace(); ns == "" && ok {
		ns = row
	}
	if ns == "" {
		ns = shown
	}
	return screen.Scope{Namespace: ns}
}

// scopeTo goes to the scope asked for with 0, :ns or :ctx: a filter of the
// fleet when the watch already covers it, else quitting with a Switch that
// cmd turns into a console watching the new scope.
func (m *Model) scopeTo(sc screen.Scope) tea.Cmd {
	if sc.At != "" || sc == (screen.Scope{}) {
		m.seekClock(sc.At)
		return nil
	}
	if m.home == nil {
		m.s.Toast = "no fleet here: :ns and :ctx choose what the fleet shows"
		return nil
	}
	if sc.ListContexts || sc.Context != "" {
		var toast string
		toast, m.scope.switchTo = m.scope.toContext(sc, m.home.Namespace())
		if m.scope.switchTo == nil {
			m.s.Toast = toast
			return nil
		}
		return tea.Quit
	}
	ns := sc.Namespace
	if sc.All {
		ns = ""
	}
	if m.scope.watchAll && ns != "" {
		// The watch sees every namespace: one it has not seen is refused,
		// and nothing the console shows or remembers changes.
		if src, ok := m.s.Src.(interface{ Namespaces() []string }); ok && !slices.Contains(src.Namespaces(), ns) {
			m.s.Toast = "no namespace " + ns + " in the cluster — :ns NAME with one of " + strings.Join(src.Namespaces(), ", ") + ", or :ns all"
			return nil
		}
	}
	if m.scope.watchAll || (ns != "" && ns == m.scope.namespace) {
		m.home.SetNamespace(ns)
		m.goHome()
		return nil
	}
	m.scope.switchTo = &Switch{Namespace: ns, AllNamespaces: ns == "", Fleet: true}
	return tea.Quit
}

// toContext lists the kubeconfig's contexts (a toast) or switches to one
// (a Switch); shown is the namespace the fleet shows, "" for all.
func (sc *scope) toContext(want screen.Scope, shown string) (string, *Switch) {
	if sc.contexts == nil {
		return "the embedded cluster has one context: " + sc.context, nil
	}
	if want.ListContexts {
		return "contexts: " + markCurrent(sc.contexts, sc.context) + " — :ctx NAME switches", nil
	}
	names := contextList(want.Context, sc.contexts)
	for _, name := range names {
		if !slices.Contains(sc.contexts, name) {
			where := "the kubeconfig"
			if sc.scenario {
				where = "the scenario"
			}
			return "no context " + name + " in " + where + " — there are " + strings.Join(sc.contexts, ", "), nil
		}
	}
	asked := strings.Join(names, ",")
	if asked == sc.context {
		return "already on context " + sc.context, nil
	}
	ns := sc.namespace
	if shown == "" {
		ns = ""
	}
	return "", &Switch{Namespace: ns, AllNamespaces: ns == "" && sc.watchAll, Context: asked}
}

// contextList reads what `:ctx` names: one context, several ("a,b"), or
// "all" of the kubeconfig's.
func contextList(asked string, known []string) []string {
	if asked == "all" {
		return known
	}
	return cluster.ContextNames(asked)
}

// markCurrent lists contexts with the current one starred, as kubectl
// config get-contexts does.
func markCurrent(contexts []string, current string) string {
	out := make([]string, len(contexts))
	for i, c := range contexts {
		out[i] = c
		if slices.Contains(strings.Split(current, ","), c) {
			out[i] = "*" + c
		}
	}
	return strings.Join(out, ", ")
}
