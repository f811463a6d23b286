package screen

import (
	"rollscope/model/action"
	"rollscope/ui/keys"
)

// Member is one cluster the console shows: its kubeconfig context, its own
// picture, and what acts on it and reads from it there. A console of one
// cluster has one Member; with several, the fleet lists every Member's rows
// and everything else — the pages, the dialogs, the keys — works on the one
// in focus (Focus), the cluster of the row opened or acted on.
type Member struct {
	Context string
	Src     Source
	// Actions and Logs are this cluster's; nil when it allows none.
	Actions Actions
	Logs    LogSource
	// Keys are the key map with this cluster's refusals (its RBAC,
	// --read-only).
	Keys *keys.Map
	// Problem says why the cluster could not be connected to at all
	// ("" when it was): it has no picture, and the fleet says why.
	Problem string
}

// Focus makes the named cluster the one the pages read and the keys act
// on; an unknown name (or "") leaves the focus where it is.
func (s *Screen) Focus(context string) {
	for _, m := range s.Members {
		if m.Context == context && m.Src != nil {
			s.Context, s.Src, s.Actions, s.Logs, s.Keys = m.Context, m.Src, m.Actions, m.Logs, m.Keys
			return
		}
	}
}

// Several reports whether the console shows more than one cluster: rows
// then name theirs, and confirmations the context they go to.
func (s *Screen) Several() bool { return len(s.Members) > 1 }

// Kubectl is r's kubectl command as a confirmation shows it: naming the
// context it goes to (--context) when the console shows several.
func (s *Screen) Kubectl(r action.Request) string {
	if s.Several() {
		r.Context = s.Context
	}
	return r.Kubectl()
}

// Clusters are the clusters shown: Members, or — for a screen built
// without them, as tests build it — the one its fields are.
func (s *Screen) Clusters() []Member {
	if len(s.Members) > 0 {
		return s.Members
	}
	return []Member{{Context: s.Context, Src: s.Src, Actions: s.Actions, Logs: s.Logs, Keys: s.Keys}}
}
