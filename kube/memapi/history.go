package memapi

import "sort"

// history keeps the latest changes of one resource so that a watch can
// resume from a resourceVersion, as the real server's watch cache does.
type history struct {
	limit   int
	ring    []change // grows up to limit, then wraps
	start   int      // index of the oldest change once the ring is full
	trimmed uint64   // resourceVersion of the newest change that fell out
}

func (h *history) add(c change) {
	if h.limit <= 0 {
		h.trimmed = c.rv
		return
	}
	if len(h.ring) < h.limit {
		h.ring = append(h.ring, c)
		return
	}
	h.trimmed = h.ring[h.start].rv
	h.ring[h.start] = c
	h.start = (h.start + 1) % len(h.ring)
}

// at returns the i-th oldest change.
func (h *history) at(i int) change { return h.ring[(h.start+i)%len(h.ring)] }

// covers reports whether every change after rv is still held.
func (h *history) covers(rv uint64) bool { return rv >= h.trimmed }

// after returns the changes with a resourceVersion greater than rv, oldest
// first. Call covers first: changes that fell out are not reported.
func (h *history) after(rv uint64) []change {
	n := len(h.ring)
	i := sort.Search(n, func(i int) bool { return h.at(i).rv > rv })
	out := make([]change, 0, n-i)
	for ; i < n; i++ {
		out = append(out, h.at(i))
	}
	return out
}
