package plain

import (
	"strings"
	"time"

	"rollscope/model/cluster"
)

// watchChanged tells errOut when the status lines stop being current and
// when they are again, so that a pipe or a log following a live cluster
// never takes silence for a steady rollout. Called with the printer's
// batches, one at a time, with p.mu held.
func (p *Status) watchChanged(b cluster.Batch) {
	was, now := p.watched, b.Watch
	p.watched = now
	if p.ErrOut == nil || !now.Synced {
		return
	}
	stamp := p.stamp(b.At)
	if line := WatchLine(was, now); line != "" {
		say(p.ErrOut, stamp, "rollscope: %s", line)
	}
}

// WatchLine is what --plain says on stderr when the watch status moves
// from was to now, "" when nothing worth a line changed.
func WatchLine(was, now cluster.WatchStatus) string {
	switch {
	case !now.Connected && now.Unanswered && (was.Connected || !was.Unanswered || was.Problem != now.Problem):
		return "the API server is not answering (" + now.Problem + ") — the lines above may be out of date until it answers again"
	case !now.Connected && !now.Unanswered && now.Problem != "" && (was.Connected || was.Problem != now.Problem):
		return "watch lost (" + now.Problem + ") — the lines above may be out of date until it reconnects"
	case now.Connected && !was.Connected && was.Synced:
		return "the API server answers again — the lines are current"
	}
	return ""
}

// gone says what the status lines cannot: that a deployment they followed
// was deleted (a line of its own, on stdout, where its lines were), and on
// stderr that the namespace watched does not exist. Called with p.mu held.
func (p *Status) gone(at time.Time) {
	for key := range p.last {
		ns, name, _ := strings.Cut(key, "/")
		if a := p.cluster.Absent(ns, name); !a.DeletedAt.IsZero() {
			delete(p.last, key)
			delete(p.why, key)
			say(p.out, p.stamp(a.DeletedAt), "deployment/%s deleted", name)
		}
	}
	if p.ErrOut != nil && p.Namespace != "" && !p.namespaceSaid && p.cluster.Absent(p.Namespace, "").NoNamespace {
		p.namespaceSaid = true
		say(p.ErrOut, p.stamp(at), "rollscope: namespace %q does not exist — nothing to follow until it is created", p.Namespace)
	}
}
