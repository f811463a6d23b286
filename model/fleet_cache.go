package model

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"
)

// fleetView is one namespace's rows, sorted, as last handed out. It is
// handed out again (copied) until a row changes, a waiting rollout crosses
// FleetStuckAfter (flipAt), or — when a row counts with the clock — the
// second changes.
type fleetView struct {
	version uint64
	rows    []FleetRow
	flipAt  time.Time // the first moment a waiting row turns stuck; zero: none
	second  int64     // now's second when built
	ticking bool      // a row's Why counts the seconds: build again each second
}

// Fleet is every workload in namespace ("" for all namespaces), one row
// each, sorted by SortFleet. now is the cluster's clock. Only the rows
// Apply marked dirty since the last call are derived again; the rest is
// kept, so a refresh costs what changed. The slice is shared by every
// caller until a row changes: readers must not modify it (it is clipped,
// so appending copies). Copying 2,000 rows on every refresh cost more
// than deriving what changed.
func (c *RCCluster) Fleet(namespace string, now time.Time) []FleetRow {
	return c.Cluster.fleet(namespace, now)
}

func (c *Cluster) fleet(namespace string, now time.Time) []FleetRow {
	c.mu.RLock()
	defer c.mu.RUnlock()
	b := c.fleetBook
	b.mu.Lock()
	defer b.mu.Unlock()
	c.deriveDirty(now)
	v := b.views[namespace]
	if v == nil || v.version != b.version || !v.flipAt.IsZero() && !now.Before(v.flipAt) || v.ticking && v.second != now.Unix() {
		v = b.build(namespace, now)
		if len(b.views) >= 8 {
			clear(b.views)
		}
		b.views[namespace] = v
	}
	return v.rows
}

// deriveDirty derives again the rows Apply marked, and the rows whose
// Why counts with the clock when the second changed.
func (c *Cluster) deriveDirty(now time.Time) {
	b := c.fleetBook
	if b.clockSecond != now.Unix() {
		b.clockSecond = now.Unix()
		for k := range b.clocked {
			if _, dirty := b.dirty[k]; !dirty {
				b.dirty[k] = now
			}
		}
	}
	if len(b.dirty) == 0 {
		return
	}
	for k := range b.dirty {
		e, ok := c.deriveFleet(k, now)
		old, had := b.entries[k]
		switch {
		case !ok && had:
			delete(b.readsPods, old.uid)
			delete(b.entries, k)
			delete(b.clocked, k)
			b.nsCount[k.namespace]--
			if b.nsCount[k.namespace] <= 0 {
				delete(b.nsCount, k.namespace)
			}
		case !ok:
			continue
		default:
			if !had {
				old = &fleetEntry{}
				b.entries[k] = old
				b.nsCount[k.namespace]++
			}
			if l := b.lost[k]; l != nil && e.row.State != FleetNodeRoll && l.over(now) {
				delete(b.lost, k)
			}
			if old.uid != e.uid {
				delete(b.readsPods, old.uid)
			}
			if e.podsMatter {
				b.readsPods[e.uid] = true
			} else {
				delete(b.readsPods, e.uid)
			}
			*old = e
			if e.clocked {
				b.clocked[k] = true
			} else {
				delete(b.clocked, k)
			}
		}
	}
	clear(b.dirty)
	b.version++
}

// build gathers and sorts namespace's rows, turning the rollouts that have
// waited FleetStuckAfter without moving stuck.
func (b *fleetBook) build(namespace string, now time.Time) *fleetView {
	v := &fleetView{version: b.version, second: now.Unix()}
	n := len(b.entries)
	if namespace != "" {
		n = b.nsCount[namespace]
	}
	v.rows = make([]FleetRow, 0, n)
	for k, e := range b.entries {
		if namespace != "" && k.namespace != namespace {
			continue
		}
		r := e.row
		if e.clocked {
			v.ticking = true
		}
		if e.waits {
			if idle := now.Sub(r.Changed); idle >= FleetStuckAfter {
				r.State, r.Word = FleetStuck, FleetStuck.String()
				r.Why = "no progress for " + ShortDuration(idle) + " — " + r.Why
				v.ticking = true
			} else if at := r.Changed.Add(FleetStuckAfter); v.flipAt.IsZero() || at.Before(v.flipAt) {
				v.flipAt = at
			}
		}
		v.rows = append(v.rows, r)
	}
	sortFleetFast(v.rows)
	v.rows = slices.Clip(v.rows)
	return v
}

// sortFleetFast is SortFleet without its stable pass: rows are unique by
// namespace, kind and name, so the order is total.
func sortFleetFast(rows []FleetRow) {
	slices.SortFunc(rows, func(a, b FleetRow) int {
		if a.State != b.State {
			return cmp.Compare(a.State, b.State)
		}
		if c := b.Changed.Compare(a.Changed); c != 0 {
			return c
		}
		if a.Namespace != b.Namespace {
			return strings.Compare(a.Namespace, b.Namespace)
		}
		if a.Kind != b.Kind {
			return strings.Compare(a.Kind, b.Kind)
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// Namespaces are the namespaces that hold a workload or that the watch
// saw exist, sorted: what `:ns` completes.
func (c *Cluster) Namespaces() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	set := maps.Clone(c.namespaces)
	for _, d := range c.deployments {
		set[d.Namespace] = true
	}
	for _, s := range c.workloads.sets {
		set[s.Namespace] = true
	}
	for _, ds := range c.workloads.daemons {
		set[ds.Namespace] = true
	}
	for _, rc := range c.fleetBook.rcs {
		set[rc.Namespace] = true
	}
	return slices.Sorted(maps.Keys(set))
}
