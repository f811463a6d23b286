package control

// lru is the LRU cache client-go's event correlator keeps
// (k8s.io/utils/lru, groupcache's), with the only use it has there: look a
// key up and then set it. Both Get and Add move a key to the front; adding a
// key beyond the capacity evicts the one at the back. Entries live in one
// array of slots linked by index, so a new key costs no allocation once
// the cache is full: the evicted key's slot is reused.
type lru[K comparable, V any] struct {
	max        int
	index      map[K]int32
	slots      []lruSlot[K, V]
	head, tail int32 // most and least recently used; -1 when empty
}

type lruSlot[K comparable, V any] struct {
	key        K
	value      V
	prev, next int32 // towards head, towards tail
}

func newLRU[K comparable, V any](max int) lru[K, V] {
	return lru[K, V]{max: max, index: map[K]int32{}, head: -1, tail: -1}
}

// touch is upstream's Get followed by Add of the same key: the key moves to
// the front (a new one with a zero value, evicting the least recently used
// when the cache is full), and the caller reads or sets its value through
// the pointer, valid until the next touch.
func (c *lru[K, V]) touch(k K) *V {
	if i, ok := c.index[k]; ok {
		c.unlink(i)
		c.pushFront(i)
		return &c.slots[i].value
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
		delete(c.index, c.slots[i].key)
	}
	c.slots[i] = lruSlot[K, V]{key: k}
	c.index[k] = i
	c.pushFront(i)
	return &c.slots[i].value
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
