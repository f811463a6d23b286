package watch

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// pump sends one batch if anything changed since the last one. Before the
// first batch it waits for the caches to sync, or until waited says it has
// waited long enough.
func (b *Bridge) pump(waited bool) {
	b.refreshStatus()
	if !b.sentFirst && !b.status.Synced && !waited {
		return
	}
	refs := b.dirty.take()
	if b.sentFirst && len(refs) == 0 && b.status == b.sent {
		return
	}
	batch := b.read(refs)
	batch.Watch = b.status
	batch.At = b.clock.Now()
	b.send(batch)
	b.sentFirst, b.sent = true, b.status
}

// refreshStatus works out whether the caches are synced and the watches
// healthy.
func (b *Bridge) refreshStatus() {
	b.podsStatus()
	synced := true
	for _, s := range b.sources {
		// A kind the user may not list cannot sync; waiting for it would
		// keep the screen "waiting for the cluster" forever, so it shows as
		// forbidden instead while the rest of the picture is trusted.
		if !b.status.Synced && !s.feed.synced.Load() && !s.forbidden.Load() {
			synced = false
		}
	}
	b.status.Listing, b.status.ListedSoFar = "", 0
	if !b.status.Synced && !synced {
		b.status.Listing, b.status.ListedSoFar = b.listing()
	}
	problem := b.problem()
	// Synced does not go back for a disconnection: caches stay filled
	// through it, and Connected says whether they are still current. Only
	// every pod listing after the console watched some (podsStatus) makes
	// the picture incomplete again.
	b.status.Synced = b.status.Synced || synced
	connected := problem == ""
	if connected != b.status.Connected {
		b.status.Connected = connected
		b.status.Since = b.since()
	}
	b.status.Problem = problem
}

// read builds a batch from the caches: the current state of every changed
// object that is still there, and the names of those that are gone. Kinds
// come in the bridge's order, then namespace and name, so that the same
// changes always make the same batch.
func (b *Bridge) read(refs map[cluster.ObjectRef]struct{}) cluster.Batch {
	sorted := make([]cluster.ObjectRef, 0, len(refs))
	for ref := range refs {
		sorted = append(sorted, ref)
	}
	slices.SortFunc(sorted, func(x, y cluster.ObjectRef) int {
		return cmp.Or(cmp.Compare(b.byKind[x.Kind][0].rank, b.byKind[y.Kind][0].rank), cmp.Compare(x.Namespace, y.Namespace), cmp.Compare(x.Name, y.Name))
	})

	var batch cluster.Batch
	for _, ref := range sorted {
		if obj, ok := b.held(ref); ok {
			if o, ok := obj.(runtime.Object); ok {
				batch.Objects = append(batch.Objects, o)
				continue
			}
		}
		batch.Deleted = append(batch.Deleted, ref)
	}
	return batch
}

// held is the object's current state in the source that holds it.
func (b *Bridge) held(ref cluster.ObjectRef) (any, bool) {
	for _, s := range b.byKind[ref.Kind] {
		if obj, ok := s.get(ref); ok {
			return obj, true
		}
	}
	if f := b.followed; f != nil && f.src.kind == ref.Kind {
		return f.src.get(ref)
	}
	return nil, false
}

// listing is the kind whose first list is still coming in, and how many of
// its objects have come so far: of the kinds not yet synced, the one that
// has brought the most — the pods, in a large namespace — else the first.
func (b *Bridge) listing() (kind string, soFar int) {
	for _, s := range b.sources {
		if s.feed.synced.Load() || s.forbidden.Load() {
			continue
		}
		if n := int(s.listed.Load()); kind == "" || n > soFar {
			kind, soFar = s.kind, n
		}
	}
	return kind, soFar
}
