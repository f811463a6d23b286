package plain

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"rollscope/model/cluster"
)

// --plain for a fleet (-A, or no workload named in a scope of several): one
// line per workload whose state or figures change (cluster.SameFigures),
// cluster.FleetLine after a stamp, and first one for each workload once the
// watch has listed them. The line is the fleet's row as the console shows
// it at that moment, so that a workload's last line never says a state or
// figures the console has moved past.
// It follows for as long as it is let (Ctrl-C; --until on the embedded
// cluster) and exits 0 then: a fleet has no end of its own.

// Fleet prints the fleet's state changes.
type Fleet struct {
	mu        sync.Mutex // the watch and the embedded runner both print
	out       io.Writer
	namespace string // "" for every namespace
	stamp     func(time.Time) string
	cluster   *cluster.Cluster
	last      map[string]cluster.FleetRow // namespace/kind/name → its row last printed
	started   bool
	errOut    io.Writer
	watched   cluster.WatchStatus
}

// NewFleet prints the state changes of namespace's workloads ("" for every
// namespace's) to out, and on errOut (nil: nowhere) when the lines stop being
// current.
func NewFleet(out, errOut io.Writer, namespace string, stamp func(time.Time) string) *Fleet {
	return &Fleet{out: out, errOut: errOut, namespace: namespace, stamp: stamp, cluster: cluster.NewCluster(), last: map[string]cluster.FleetRow{}}
}

// Batch takes the watch's next batch and prints what it changed.
func (p *Fleet) Batch(b cluster.Batch) {
	// The clock's ticks read the cluster too.
	p.mu.Lock()
	defer p.mu.Unlock()
	p.watchChanged(b)
	changed := p.cluster.Apply(b)
	if !b.Watch.Synced || (!changed && p.started) {
		return
	}
	p.started = true
	p.print(b.At)
}

// Tick prints what the clock alone changed: a rollout that has waited
// fleetStuckAfter reads stuck when no watch event comes to say so, as the
// console's rows turn on its clock. now is the cluster's clock.
func (p *Fleet) Tick(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started {
		p.print(now)
	}
}

// TickEvery calls Tick every period (of the wall clock) with the time now
// gives, until ctx ends.
func (p *Fleet) TickEvery(ctx context.Context, period time.Duration, now func() time.Time) {
	every(ctx, period, now, p.Tick)
}

// every calls f with the time now gives every period of the wall clock,
// until ctx ends.
func every(ctx context.Context, period time.Duration, now func() time.Time, f func(time.Time)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f(now())
		}
	}
}

// print prints each row whose figures differ from its last line, and the
// workloads gone since; p.mu is held.
func (p *Fleet) print(at time.Time) {
	rows := p.cluster.Fleet(p.namespace, at)
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		key := r.Namespace + "/" + r.Ref()
		seen[key] = true
		if last, ok := p.last[key]; !ok || !cluster.SameFigures(last, r) {
			p.last[key] = r
			say(p.out, p.stamp(at), "%s", cluster.FleetLine(r))
		}
	}
	for key := range p.last {
		if !seen[key] {
			delete(p.last, key)
			say(p.out, p.stamp(at), "%s deleted", key)
		}
	}
}

// watchChanged says on stderr when the lines stop being current and when
// they are again, as the one-deployment --plain does. Called with p.mu
// held.
func (p *Fleet) watchChanged(b cluster.Batch) {
	was, now := p.watched, b.Watch
	p.watched = now
	if p.errOut == nil || !now.Synced {
		return
	}
	if line := WatchLine(was, now); line != "" {
		say(p.errOut, p.stamp(b.At), "rollscope: %s", line)
	}
}

// Action prints a scripted action of the embedded cluster as it is sent.
func (p *Fleet) Action(at time.Time, kind, target, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	say(p.out, p.stamp(at), "action %s %s: %s", kind, target, result)
}

// ScopeWords name what a fleet run follows, for its banner: "every
// namespace", or `namespace "shop"`.
func ScopeWords(namespace string) string {
	if namespace == "" {
		return "every namespace"
	}
	return fmt.Sprintf("namespace %q", namespace)
}
