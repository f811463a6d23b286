package picker

import (
	"strings"

	"rollscope/ui/screen"
)

// scopeQuery reads `:ns NAME`, `:ns all`, `:ctx` and `:ctx NAME` (k9s's
// habit; kubectl's long words too); false when the query is not one.
func (p *Picker) scopeQuery() (sc screen.Scope, word string, ok bool) {
	if p.mode != ':' {
		return screen.Scope{}, "", false
	}
	word, arg, _ := strings.Cut(strings.TrimSpace(p.query), " ")
	arg = strings.TrimSpace(arg)
	switch word {
	case "ns", "namespace", "namespaces":
		if arg == "all" || arg == "-A" {
			return screen.Scope{All: true}, "ns", true
		}
		return screen.Scope{Namespace: arg}, "ns", true
	case "ctx", "context", "contexts":
		return screen.Scope{Context: arg, ListContexts: arg == ""}, "ctx", true
	case "at":
		return screen.Scope{At: arg}, "at", true
	}
	return screen.Scope{}, "", false
}

// chooseScope asks the console for the scope typed; false when the query
// names none.
func (p *Picker) chooseScope() bool {
	sc, word, ok := p.scopeQuery()
	if !ok {
		return false
	}
	if word == "ns" && sc.Namespace == "" && !sc.All {
		p.s.Toast = "give the namespace: :ns NAME, or :ns all for every namespace"
		return true
	}
	if word == "ns" && !sc.All {
		// A namespace the watch knows completes from a unique start.
		if m := p.namespaces(sc.Namespace); len(m) == 1 {
			sc.Namespace = m[0]
		}
	}
	p.s.Go(screen.Target{Scope: &sc})
	return true
}

// namespaceSource is a source that knows the cluster's namespaces
// (cluster.Cluster): `:ns` completes from them.
type namespaceSource interface{ Namespaces() []string }

// namespaces are the namespaces the watch knows that start with prefix;
// just prefix when one is exactly that.
func (p *Picker) namespaces(prefix string) []string {
	src, ok := p.s.Src.(namespaceSource)
	if !ok {
		return nil
	}
	var out []string
	for _, ns := range src.Namespaces() {
		if ns == prefix {
			return []string{ns}
		}
		if strings.HasPrefix(ns, prefix) {
			out = append(out, ns)
		}
	}
	return out
}

// scopeHint says what enter will do with the scope typed, and which
// namespaces the one typed could be.
func (p *Picker) scopeHint(sc screen.Scope, word string) string {
	if word == "ns" && !sc.All {
		m := p.namespaces(sc.Namespace)
		switch {
		case len(m) == 1:
			return "enter shows the fleet of namespace " + m[0]
		case len(m) > 1:
			return "namespaces: " + strings.Join(m, ", ") + " · all"
		}
	}
	switch {
	case word == "at":
		return "enter jumps the replay to that clock time (15:04:05)"
	case word == "ns" && sc.All:
		return "enter shows the fleet of every namespace"
	case word == "ns" && sc.Namespace == "":
		return "type the namespace, or all"
	case word == "ns":
		return "enter shows the fleet of namespace " + sc.Namespace
	case sc.ListContexts:
		return "enter lists the kubeconfig's contexts; :ctx NAME switches"
	}
	if sc.Context == "all" {
		return "enter shows every context of the kubeconfig at once"
	}
	return "enter switches to context " + sc.Context
}
