package screen

import (
	"time"

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
	// PodEvents brings a pod's Normal events while its detail is open.
	PodEvents PodEventSource
	// Pods chooses whose pods the watch brings; nil when it brings every
	// pod in scope.
	Pods PodScope
	// Keys are the key map with this cluster's refusals (its RBAC,
	// --read-only).
	Keys *keys.Map
	// Problem says why the cluster could not be connected to at all
	// ("" when it was): it has no picture, and the fleet says why, and
	// how long ago it was Tried (zero while the first try goes on).
	Problem string
	Tried   time.Time
}

// Why is the Problem as the fleet says it: with how long ago the cluster
// was last tried — "last tried 4s ago: connection refused", as a stale
// picture says "last known 12s ago: …".
func (m Member) Why(now time.Time) string {
	if m.Problem == "" || m.Tried.IsZero() {
		return m.Problem
	}
	return "last tried " + max(now.Sub(m.Tried), 0).Round(time.Second).String() + " ago: " + m.Problem
}

// Focus makes the named cluster the one the pages read and the keys act
// on; an unknown name (or "") leaves the focus where it is.
func (s *Screen) Focus(context string) {
	for _, m := range s.Members {
		if m.Context == context && m.Src != nil {
			s.Context, s.Src, s.Actions, s.Logs, s.PodEvents, s.Keys = m.Context, m.Src, m.Actions, m.Logs, m.PodEvents, m.Keys
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
	return []Member{{Context: s.Context, Src: s.Src, Actions: s.Actions, Logs: s.Logs, PodEvents: s.PodEvents, Keys: s.Keys}}
}
