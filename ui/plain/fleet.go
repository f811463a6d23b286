package plain

import (
	"fmt"
	"io"
	"sync"
	"time"

	"rollscope/model/cluster"
)

// --plain for a fleet (-A, or no workload named in a scope of several): one
// line per workload whose rollout state changes, cluster.FleetLine after a
// stamp, and first one for each workload once the watch has listed them.
// It follows for as long as it is let (Ctrl-C; --until on the embedded
// cluster) and exits 0 then: a fleet has no end of its own.

// Fleet prints the fleet's state changes.
type Fleet struct {
	mu        sync.Mutex // the watch and the embedded runner both print
	out       io.Writer
	namespace string // "" for every namespace
	stamp     func(time.Time) string
	cluster   *cluster.Cluster
	last      map[string]string // namespace/kind/name → its last state word
	started   bool
	errOut    io.Writer
	watched   cluster.WatchStatus
}

// NewFleet prints the state changes of namespace's workloads ("" for every
// namespace's) to out, and on errOut (nil: nowhere) when the lines stop being
// current.
func NewFleet(out, errOut io.Writer, namespace string, stamp func(time.Time) string) *Fleet {
	return &Fleet{out: out, errOut: errOut, namespace: namespace, stamp: stamp, cluster: cluster.NewCluster(), last: map[string]string{}}
}

// Batch takes the watch's next batch and prints what it changed.
func (p *Fleet) Batch(b cluster.Batch) {
	p.watchChanged(b)
	changed := p.cluster.Apply(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !b.Watch.Synced || (!changed && p.started) {
		return
	}
	p.started = true
	rows := p.cluster.Fleet(p.namespace, b.At)
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		key := r.Namespace + "/" + r.Ref()
		seen[key] = true
		if p.last[key] != r.Word {
			p.last[key] = r.Word
			fmt.Fprintf(p.out, "[%s] %s\n", p.stamp(b.At), cluster.FleetLine(r))
		}
	}
	for key := range p.last {
		if !seen[key] {
			delete(p.last, key)
			fmt.Fprintf(p.out, "[%s] %s deleted\n", p.stamp(b.At), key)
		}
	}
}

// watchChanged says on stderr when the lines stop being current and when
// they are again, as the one-deployment --plain does.
func (p *Fleet) watchChanged(b cluster.Batch) {
	was, now := p.watched, b.Watch
	p.watched = now
	if p.errOut == nil || !now.Synced {
		return
	}
	if line := WatchLine(was, now); line != "" {
		p.mu.Lock()
		defer p.mu.Unlock()
		fmt.Fprintf(p.errOut, "[%s] rollscope: %s\n", p.stamp(b.At), line)
	}
}

// Action prints a scripted action of the embedded cluster as it is sent.
func (p *Fleet) Action(at time.Time, kind, target, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "[%s] action %s %s: %s\n", p.stamp(at), kind, target, result)
}
