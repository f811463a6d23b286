package replicaset

// This file is Go's sort.Stable (sort/zsortinterface.go: stable,
// insertionSort, symMerge, rotate) specialised to sorting positions into a
// slice of victim keys. Upstream's comparison is not transitive on ties, so
// the victims are those of sort.Stable only if every decision is the one
// sort.Stable makes: the same Less questions, asked about the same
// elements, in the same order. This copy asks exactly those. What it changes
// is how elements move: where sort.Stable walks an element into place or
// rotates two blocks with one interface Swap per step, the result of such a
// move is defined whatever moves made it, so here it is done with copy
// (through a scratch buffer for rotations). A 100,000-pod scale-down makes
// tens of millions of those swaps per sync.

// stableSorter sorts perm by the keys its entries point at, as
// sort.Stable(permutedOrder{keys, perm}) would.
type stableSorter struct {
	keys []victimKey
	// major holds each key's victimKey.major, nil when one has none: a
	// comparison reads the keys only when the majors are equal, and gets
	// the answer before would give either way.
	major   []uint64
	perm    []int32
	scratch []int32 // for rotations; up to half of perm
}

// less is sort.Interface's Less(i, j) over perm.
func (s *stableSorter) less(i, j int) bool {
	return s.before(s.perm[i], s.perm[j])
}

// before is keys[x].before(&keys[y]), deciding from the majors when they
// differ.
func (s *stableSorter) before(x, y int32) bool {
	if s.major != nil {
		if mx, my := s.major[x], s.major[y]; mx != my {
			return mx < my
		}
		return s.keys[x].minorBefore(&s.keys[y])
	}
	return s.keys[x].before(&s.keys[y])
}

// sortStable is sort's stable(data, n).
func (s *stableSorter) sortStable() {
	n := len(s.perm)
	blockSize := 20 // as sort.Stable's
	a, b := 0, blockSize
	for b <= n {
		s.insertionSort(a, b)
		a = b
		b += blockSize
	}
	s.insertionSort(a, n)

	for blockSize < n {
		a, b = 0, 2*blockSize
		for b <= n {
			s.symMerge(a, a+blockSize, b)
			a = b
			b += 2 * blockSize
		}
		if m := a + blockSize; m < n {
			s.symMerge(a, m, n)
		}
		blockSize *= 2
	}
}

// insertionSort is sort's insertionSort: the element at i is swapped down
// while it is less than its left neighbour. It is held aside and the
// neighbours it passes shift right, which leaves the same order.
func (s *stableSorter) insertionSort(a, b int) {
	perm := s.perm
	for i := a + 1; i < b; i++ {
		x := perm[i]
		j := i
		for ; j > a && s.before(x, perm[j-1]); j-- {
			perm[j] = perm[j-1]
		}
		perm[j] = x
	}
}

// symMerge is sort's symMerge: it merges the sorted perm[a:m] and perm[m:b]
// (a < m < b) with the same comparisons.
func (s *stableSorter) symMerge(a, m, b int) {
	perm := s.perm
	if m-a == 1 {
		// The lowest i in [m, b) with perm[i] >= perm[a], or b.
		i, j := m, b
		for i < j {
			h := int(uint(i+j) >> 1)
			if s.less(h, a) {
				i = h + 1
			} else {
				j = h
			}
		}
		// perm[a] moves to i-1; those between shift left.
		x := perm[a]
		copy(perm[a:i-1], perm[a+1:i])
		perm[i-1] = x
		return
	}
	if b-m == 1 {
		// The lowest i in [a, m) with perm[i] > perm[m], or m.
		i, j := a, m
		for i < j {
			h := int(uint(i+j) >> 1)
			if !s.less(m, h) {
				i = h + 1
			} else {
				j = h
			}
		}
		// perm[m] moves to i; those between shift right.
		x := perm[m]
		copy(perm[i+1:m+1], perm[i:m])
		perm[i] = x
		return
	}

	mid := int(uint(a+b) >> 1)
	n := mid + m
	var start, r int
	if m > mid {
		start = n - b
		r = mid
	} else {
		start = a
		r = m
	}
	p := n - 1
	for start < r {
		c := int(uint(start+r) >> 1)
		if !s.less(p-c, c) {
			start = c + 1
		} else {
			r = c
		}
	}

	end := n - start
	if start < m && m < end {
		s.rotate(start, m, end)
	}
	if a < start && start < mid {
		s.symMerge(a, start, mid)
	}
	if mid < end && end < b {
		s.symMerge(mid, end, b)
	}
}

// rotate turns the blocks u = perm[a:m], v = perm[m:b] (both non-empty) into
// v u, as sort's rotate does, moving the shorter block aside.
func (s *stableSorter) rotate(a, m, b int) {
	perm := s.perm
	u, v := m-a, b-m
	if u <= v {
		tmp := append(s.scratch[:0], perm[a:m]...)
		copy(perm[a:], perm[m:b])
		copy(perm[a+v:b], tmp)
		s.scratch = tmp
		return
	}
	tmp := append(s.scratch[:0], perm[m:b]...)
	copy(perm[a+v:b], perm[a:m])
	copy(perm[a:a+v], tmp)
	s.scratch = tmp
}
