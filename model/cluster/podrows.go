package cluster

import (
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// podRowCache keeps each ReplicaSet's pod rows between refreshes. The console
// refreshes its views on every batch (up to 20 a second) and every second;
// gathering the rows of every pod of every ReplicaSet each time made a
// refresh cost what the cluster holds instead of what changed (12% of the
// live console's CPU during a 1,000-pod rollout). When one of an owner's
// pods comes, changes or goes its name is noted, and the next read patches
// the kept rows with the noted pods' current rows, so that a rollout whose
// new pods change on every batch does not sort all its pods' names again.
//
// Views are read under the Cluster's read lock, by any number of readers,
// so the cache has a lock of its own.
type podRowCache struct {
	mu   sync.Mutex
	rows map[tallyKey]*keptRows
}

// keptRows are one owner's rows in one namespace.
type keptRows struct {
	rows []PodRow // by name; what the latest read returned, not modified
	// spare is what a read before it returned, which no reader holds any
	// more (see podRowsOf): the next patch writes into it.
	spare   []PodRow
	changed []string // the pods noted since, by name
}

// note records that the pod name, of owner in namespace, came, changed or
// went. Past a quarter of the rows, gathering them again costs less than
// patching, and they are dropped.
func (pc *podRowCache) note(owner types.UID, has bool, namespace, name string) {
	if !has {
		return
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	key := tallyKey{owner, namespace}
	k := pc.rows[key]
	switch {
	case k == nil:
	case len(k.changed) >= len(k.rows)/4+8:
		delete(pc.rows, key)
	default:
		k.changed = append(k.changed, name)
	}
}

// podRowsOf returns the rows of the pods owned by uid in namespace, in
// name order. Readers must not modify them (the slice is clipped, so
// appending copies), and may hold them through one more read, not two: a
// patch writes into the rows returned before the latest read, two slices
// an owner taking turns, because a new slice each patch was 82 % of what
// a console watching a 30,000-pod rollout allocated, and its collector a
// third of its CPU. The one reader, the console's screen, reads once a
// refresh and keeps only the latest view; a second reader of the same
// Cluster would need slices of its own.
func (c *Cluster) podRowsOf(uid types.UID, namespace string) []PodRow {
	pc := &c.podRows
	pc.mu.Lock()
	defer pc.mu.Unlock()
	key := tallyKey{uid, namespace}
	if k, ok := pc.rows[key]; ok {
		if len(k.changed) > 0 {
			k.rows, k.spare = c.patchRows(key, k.rows, k.changed, k.spare), k.rows
			k.changed = k.changed[:0]
		}
		return slices.Clip(k.rows)
	}
	keys := c.podsByOwner.sorted(uid)
	rows := make([]PodRow, 0, len(keys))
	for _, key := range keys {
		if pe := c.pods[key]; pe != nil && pe.pod.Namespace == namespace {
			rows = append(rows, pe.row)
		}
	}
	if pc.rows == nil {
		pc.rows = map[tallyKey]*keptRows{}
	}
	pc.rows[key] = &keptRows{rows: rows}
	return slices.Clip(rows)
}

// patchRows is rows, by name, with the pods named in changed as they are
// now: each one's current row if it is still the owner's, none if not,
// written into buf (rows no reader holds; grown if short), as readers may
// hold rows. Each changed name is found by binary search and the rows
// between two of them are copied whole: at 30,000 pods, comparing every
// row's name with the next changed one was a tenth of a live console's CPU.
func (c *Cluster) patchRows(key tallyKey, rows []PodRow, changed []string, buf []PodRow) []PodRow {
	slices.Sort(changed)
	changed = slices.Compact(changed)
	out := slices.Grow(buf[:0], len(rows)+len(changed))
	from := 0 // rows before it are in out
	for _, name := range changed {
		at, found := slices.BinarySearchFunc(rows[from:], name, func(r PodRow, name string) int { return strings.Compare(r.Name, name) })
		at += from
		out = append(out, rows[from:at]...)
		if pe := c.pods[objectKey(key.namespace, name)]; pe != nil && pe.facts.owner == key.owner {
			out = append(out, pe.row)
		}
		from = at
		if found {
			from++
		}
	}
	out = append(out, rows[from:]...)
	// The rows buf held past them keep no pod's strings alive; past
	// len(buf) it holds none already, so a ReplicaSet scaling down does
	// not clear its whole former size on every patch.
	clear(out[len(out):max(len(out), len(buf))])
	return out
}
