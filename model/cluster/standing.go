package cluster

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"
)

// fleetView is one namespace's rows, sorted, as last handed out. It is
// handed out again (copied) until a row changes, a waiting rollout crosses
// fleetStuckAfter (flipAt), or — when a row counts with the clock — the
// second changes.
type fleetView struct {
	version uint64
	rows    []FleetRow
	keys    []fleetOrder // rows' sort keys, in order
	flipAt  time.Time    // the first moment a waiting row turns stuck; zero: none
	second  int64        // now's second when built
	ticking bool         // a row's Why counts the seconds: build again each second
}

// Fleet is every workload in namespace ("" for all namespaces), one row
// each, sorted by SortFleet. now is the cluster's clock. Only the rows
// Apply marked dirty since the last call are derived again; the rest is
// kept, so a refresh costs what changed. The slice is shared by every
// caller until a row changes: readers must not modify it (it is clipped,
// so appending copies). Copying 2,000 rows on every refresh cost more
// than deriving what changed.
func (c *Cluster) Fleet(namespace string, now time.Time) []FleetRow {
	c.mu.RLock()
	defer c.mu.RUnlock()
	b := c.fleetBook
	b.mu.Lock()
	defer b.mu.Unlock()
	c.deriveDirty(now)
	v := b.views[namespace]
	if v == nil || v.version != b.version || !v.flipAt.IsZero() && !now.Before(v.flipAt) || v.ticking && v.second != now.Unix() {
		v = b.build(namespace, now, v)
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
			b.dirty[k] = true
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
			old.gone = true
			b.readPods(old, false)
			delete(b.byUID, old.uid)
			delete(b.movedAt, k)
			delete(b.revisedAt, k)
			delete(b.lost, k)
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
			b.readPods(old, false)
			*old = e
			b.readPods(old, e.podsMatter)
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
// waited fleetStuckAfter without moving stuck. A refresh changes the place
// of a few rows at most: the rows whose sort key did not change keep their
// order from prev, the others are sorted alone and merged in. Sorting 2,000
// rows each time cost a millisecond and more.
func (b *fleetBook) build(namespace string, now time.Time, prev *fleetView) *fleetView {
	b.builds++
	id := b.builds
	v := &fleetView{version: b.version, second: now.Unix()}
	n := len(b.entries)
	if namespace != "" {
		n = b.nsCount[namespace]
	}
	kept := make([]fleetOrder, 0, n)
	var placed []fleetOrder
	if prev != nil {
		for _, o := range prev.keys {
			if o.e.gone || o.e.built == id {
				continue
			}
			cur := v.order(o.e, now)
			o.e.built = id
			if cur.state == o.state && cur.changed == o.changed && cur.idle == 0 == (o.idle == 0) {
				kept = append(kept, cur)
			} else {
				placed = append(placed, cur)
			}
		}
	}
	for k, e := range b.entries {
		if e.built != id && (namespace == "" || k.namespace == namespace) {
			e.built = id
			placed = append(placed, v.order(e, now))
		}
	}
	slices.SortFunc(placed, compareOrder)
	v.keys = mergeOrders(kept, placed)
	v.rows = make([]FleetRow, len(v.keys))
	for i, o := range v.keys {
		r := &v.rows[i]
		*r = o.e.row
		if o.idle > 0 {
			r.State, r.Word = FleetStuck, FleetStuck.String()
			r.Why = "no progress for " + kubectlAge(o.idle) + " — " + r.Why
		}
	}
	return v
}

// order is e's sort key at now; it notes on v when a waiting rollout will
// turn stuck, and whether a row counts seconds.
func (v *fleetView) order(e *fleetEntry, now time.Time) fleetOrder {
	o := fleetOrder{state: e.row.State, changed: e.row.Changed.UnixNano(), e: e}
	if e.clocked {
		v.ticking = true
	}
	if e.waits {
		if idle := now.Sub(e.row.Changed); idle >= fleetStuckAfter {
			o.state, o.idle = FleetStuck, idle
			v.ticking = true
		} else if at := e.row.Changed.Add(fleetStuckAfter); v.flipAt.IsZero() || at.Before(v.flipAt) {
			v.flipAt = at
		}
	}
	return o
}

func compareOrder(a, b fleetOrder) int {
	if a.state != b.state {
		return cmp.Compare(a.state, b.state)
	}
	if a.changed != b.changed {
		return cmp.Compare(b.changed, a.changed)
	}
	return compareNames(&a.e.row, &b.e.row)
}

// mergeOrders merges two sorted key lists.
func mergeOrders(a, b []fleetOrder) []fleetOrder {
	if len(b) == 0 {
		return a
	}
	out := make([]fleetOrder, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if compareOrder(b[j], a[i]) < 0 {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// fleetOrder is what a row sorts by: its state as shown (a waiting
// rollout idle for fleetStuckAfter, idle > 0, shows stuck), when it last
// changed, and its names through e.
type fleetOrder struct {
	state   FleetState
	changed int64
	idle    time.Duration
	e       *fleetEntry
}

func compareNames(a, b *FleetRow) int {
	if a.Namespace != b.Namespace {
		return strings.Compare(a.Namespace, b.Namespace)
	}
	if a.Kind != b.Kind {
		return strings.Compare(short(a.Kind), short(b.Kind))
	}
	return strings.Compare(a.Name, b.Name)
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
	for _, held := range c.workloads.byKind {
		for _, w := range held {
			set[w.GetNamespace()] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// readPods notes whether the pods of e's ReplicaSets are read by its row.
func (b *fleetBook) readPods(e *fleetEntry, reads bool) {
	for _, rs := range e.rss {
		if reads {
			b.readsPods[rs.UID] = true
		} else {
			delete(b.readsPods, rs.UID)
		}
	}
}
