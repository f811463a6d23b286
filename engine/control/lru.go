package control

import "hash/maphash"

// lru is the LRU cache client-go's event correlator keeps
// (k8s.io/utils/lru, groupcache's), with the only use it has there: look a
// key up and then set it. Both Get and Add move a key to the front; adding a
// key beyond the capacity evicts the one at the back. Entries live in one
// array of slots linked by index, so a new key costs no allocation once
// the cache is full: the evicted key's slot is reused. A key, a dozen
// strings, is hashed once per touch: the index is by its hash, and keys
// that share a hash are chained through their slots; a map keyed by the
// struct would hash it again to evict and to insert.
type lru[K comparable, V any] struct {
	max        int
	hash       func(K) uint64
	index      map[uint64]int32 // the first slot of a hash's chain
	slots      []lruSlot[K, V]
	head, tail int32 // most and least recently used; -1 when empty
}

type lruSlot[K comparable, V any] struct {
	key        K
	value      V
	hash       uint64
	prev, next int32 // towards head, towards tail
	same       int32 // the next slot of the same hash, -1 at the end
}

func newLRU[K comparable, V any](max int) lru[K, V] {
	seed := maphash.MakeSeed()
	hash := func(k K) uint64 { return maphash.Comparable(seed, k) }
	return lru[K, V]{max: max, hash: hash, index: map[uint64]int32{}, head: -1, tail: -1}
}

// touch is upstream's Get followed by Add of the same key: the key moves to
// the front (a new one with a zero value, evicting the least recently used
// when the cache is full), and the caller reads or sets its value through
// the pointer, valid until the next touch.
func (c *lru[K, V]) touch(k K) *V {
	h := c.hash(k)
	if first, ok := c.index[h]; ok {
		for i := first; i >= 0; i = c.slots[i].same {
			if c.slots[i].key == k {
				c.unlink(i)
				c.pushFront(i)
				return &c.slots[i].value
			}
		}
	}
	var i int32
	if len(c.slots) < c.max {
		c.slots = append(c.slots, lruSlot[K, V]{})
		i = int32(len(c.slots) - 1)
	} else {
		// Upstream adds first and then removes the oldest; with at least one
		// entry the oldest is never the new key, so the same key goes.
		i = c.tail
		c.unlink(i)
		c.forget(i)
	}
	first, ok := c.index[h] // after forget: the evicted key may have shared h
	if !ok {
		first = -1
	}
	c.slots[i] = lruSlot[K, V]{key: k, hash: h, same: first}
	c.index[h] = i
	c.pushFront(i)
	return &c.slots[i].value
}

// forget takes slot i out of its hash's chain.
func (c *lru[K, V]) forget(i int32) {
	h := c.slots[i].hash
	first := c.index[h]
	if first == i {
		if next := c.slots[i].same; next >= 0 {
			c.index[h] = next
		} else {
			delete(c.index, h)
		}
		return
	}
	for j := first; j >= 0; j = c.slots[j].same {
		if c.slots[j].same == i {
			c.slots[j].same = c.slots[i].same
			return
		}
	}
}

// touchFront is touch for a key that is likely the most recently used:
// comparing it with the front key spares hashing it, and touching the front
// key only sets its value.
func (c *lru[K, V]) touchFront(k K) *V {
	if c.head >= 0 && c.slots[c.head].key == k {
		return &c.slots[c.head].value
	}
	return c.touch(k)
}

func (c *lru[K, V]) unlink(i int32) {
	s := &c.slots[i]
	if s.prev >= 0 {
		c.slots[s.prev].next = s.next
	} else {
		c.head = s.next
	}
	if s.next >= 0 {
		c.slots[s.next].prev = s.prev
	} else {
		c.tail = s.prev
	}
}

func (c *lru[K, V]) pushFront(i int32) {
	s := &c.slots[i]
	s.prev, s.next = -1, c.head
	if c.head >= 0 {
		c.slots[c.head].prev = i
	} else {
		c.tail = i
	}
	c.head = i
}

// keys are the cached keys, most recently used first (for tests).
func (c *lru[K, V]) keys() []K {
	var out []K
	for i := c.head; i >= 0; i = c.slots[i].next {
		out = append(out, c.slots[i].key)
	}
	return out
}
