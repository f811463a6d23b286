package replicaset

import (
	"math/bits"
	"slices"
)

// firstPositions fills perm with the positions 0…len(perm)-1 and leaves
// perm[:n] as slices.SortFunc(perm, cmp) would leave it, without sorting the
// rest: a scale-down deletes a few hundred of a ReplicaSet's pods and, to
// pick the same ones as upstream's sort.Sort, sorted all of them on every
// sync — O(N log N) comparisons for each of a 100,000-pod rollout's hundreds
// of scale-down steps.
//
// It is slices.SortFunc's pattern-defeating quicksort step for step, except
// that it does not sort the elements a partition puts right of its pivot
// when the pivot lands at n or beyond. The sort works on one range at a time
// and only inside it — but for one step: the partial insertion sort, tried
// on a range that looks sorted already, shifts an element left while it
// compares less than its left neighbour, and does not stop at the range's
// start. For the range right of a pivot it stops there: the partition asked
// cmp(x, pivot) of every element x it put there and got "not less", and the
// shift would ask that same question at the range's start. So sorting that
// range can only move elements within it, beyond n. (The range right of a run
// of elements equal to a pivot, which the sort also splits off, has no such
// guarantee under upstream's comparison, which is not transitive on ties: it
// is sorted as slices.SortFunc sorts it.)
func firstPositions(perm []int32, n int, cmp func(a, b int32) int) {
	for i := range perm {
		perm[i] = int32(i)
	}
	if n >= len(perm) {
		slices.SortFunc(perm, cmp)
		return
	}
	p := prefixSort{data: perm, n: n, cmp: cmp}
	p.pdqsort(0, len(perm), bits.Len(uint(len(perm))))
}

// prefixSort is one firstPositions call: the data, the prefix that must
// come out as slices.SortFunc would leave it, and the comparison.
type prefixSort struct {
	data []int32
	n    int
	cmp  func(a, b int32) int
}

func (p *prefixSort) less(i, j int) bool { return p.cmp(p.data[i], p.data[j]) < 0 }
func (p *prefixSort) swap(i, j int)      { p.data[i], p.data[j] = p.data[j], p.data[i] }

// The steps below are slices.SortFunc's (Go's zsortanyfunc.go), in the same
// order and with the same comparisons, so that the prefix's elements come
// out in the same places; TestFirstPositionsAreSortFuncsPrefix holds them to
// it.

type pivotHint int

const (
	unknownHint pivotHint = iota
	increasingHint
	decreasingHint
)

func (p *prefixSort) pdqsort(a, b, limit int) {
	const maxInsertion = 12
	wasBalanced, wasPartitioned := true, true
	for {
		length := b - a
		if length <= maxInsertion {
			p.insertionSort(a, b)
			return
		}
		if limit == 0 {
			p.heapSort(a, b)
			return
		}
		if !wasBalanced {
			p.breakPatterns(a, b)
			limit--
		}
		pivot, hint := p.choosePivot(a, b)
		if hint == decreasingHint {
			p.reverseRange(a, b)
			pivot = (b - 1) - (pivot - a)
			hint = increasingHint
		}
		if wasBalanced && wasPartitioned && hint == increasingHint {
			if p.partialInsertionSort(a, b) {
				return
			}
		}
		if a > 0 && !p.less(a-1, pivot) {
			a = p.partitionEqual(a, b, pivot)
			continue
		}
		mid, alreadyPartitioned := p.partition(a, b, pivot)
		wasPartitioned = alreadyPartitioned
		leftLen, rightLen := mid-a, b-mid
		balanceThreshold := length / 8
		if leftLen < rightLen {
			wasBalanced = leftLen >= balanceThreshold
			p.pdqsort(a, mid, limit)
			a = mid + 1
			if a >= p.n {
				return // right of a pivot at n or beyond
			}
		} else {
			wasBalanced = rightLen >= balanceThreshold
			if mid+1 < p.n {
				p.pdqsort(mid+1, b, limit)
			}
			b = mid
		}
	}
}

func (p *prefixSort) insertionSort(a, b int) {
	for i := a + 1; i < b; i++ {
		for j := i; j > a && p.less(j, j-1); j-- {
			p.swap(j, j-1)
		}
	}
}

func (p *prefixSort) siftDown(lo, hi, first int) {
	root := lo
	for {
		child := 2*root + 1
		if child >= hi {
			return
		}
		if child+1 < hi && p.less(first+child, first+child+1) {
			child++
		}
		if !p.less(first+root, first+child) {
			return
		}
		p.swap(first+root, first+child)
		root = child
	}
}

func (p *prefixSort) heapSort(a, b int) {
	first, hi := a, b-a
	for i := (hi - 1) / 2; i >= 0; i-- {
		p.siftDown(i, hi, first)
	}
	for i := hi - 1; i >= 0; i-- {
		p.swap(first, first+i)
		p.siftDown(0, i, first)
	}
}

func (p *prefixSort) partition(a, b, pivot int) (mid int, alreadyPartitioned bool) {
	p.swap(a, pivot)
	i, j := a+1, b-1
	for i <= j && p.less(i, a) {
		i++
	}
	for i <= j && !p.less(j, a) {
		j--
	}
	if i > j {
		p.swap(j, a)
		return j, true
	}
	p.swap(i, j)
	i++
	j--
	for {
		for i <= j && p.less(i, a) {
			i++
		}
		for i <= j && !p.less(j, a) {
			j--
		}
		if i > j {
			break
		}
		p.swap(i, j)
		i++
		j--
	}
	p.swap(j, a)
	return j, false
}

func (p *prefixSort) partitionEqual(a, b, pivot int) int {
	p.swap(a, pivot)
	i, j := a+1, b-1
	for {
		for i <= j && !p.less(a, i) {
			i++
		}
		for i <= j && p.less(a, j) {
			j--
		}
		if i > j {
			return i
		}
		p.swap(i, j)
		i++
		j--
	}
}

func (p *prefixSort) partialInsertionSort(a, b int) bool {
	const maxSteps, shortestShifting = 5, 50
	i := a + 1
	for range maxSteps {
		for i < b && !p.less(i, i-1) {
			i++
		}
		if i == b {
			return true
		}
		if b-a < shortestShifting {
			return false
		}
		p.swap(i, i-1)
		if i-a >= 2 {
			// Down to the slice's start, not the range's: as upstream's.
			for j := i - 1; j >= 1 && p.less(j, j-1); j-- {
				p.swap(j, j-1)
			}
		}
		if b-i >= 2 {
			for j := i + 1; j < b && p.less(j, j-1); j++ {
				p.swap(j, j-1)
			}
		}
	}
	return false
}

func (p *prefixSort) breakPatterns(a, b int) {
	length := b - a
	if length < 8 {
		return
	}
	random := uint64(length)
	modulus := uint(1) << bits.Len(uint(length))
	for idx := a + (length/4)*2 - 1; idx <= a+(length/4)*2+1; idx++ {
		random ^= random << 13
		random ^= random >> 7
		random ^= random << 17
		other := int(uint(random) & (modulus - 1))
		if other >= length {
			other -= length
		}
		p.swap(idx, a+other)
	}
}

func (p *prefixSort) choosePivot(a, b int) (int, pivotHint) {
	const shortestNinther, maxSwaps = 50, 4 * 3
	l := b - a
	swaps := 0
	i, j, k := a+l/4*1, a+l/4*2, a+l/4*3
	if l >= 8 {
		if l >= shortestNinther {
			i = p.median(i-1, i, i+1, &swaps)
			j = p.median(j-1, j, j+1, &swaps)
			k = p.median(k-1, k, k+1, &swaps)
		}
		j = p.median(i, j, k, &swaps)
	}
	switch swaps {
	case 0:
		return j, increasingHint
	case maxSwaps:
		return j, decreasingHint
	default:
		return j, unknownHint
	}
}

func (p *prefixSort) order2(a, b int, swaps *int) (int, int) {
	if p.less(b, a) {
		*swaps++
		return b, a
	}
	return a, b
}

func (p *prefixSort) median(a, b, c int, swaps *int) int {
	a, b = p.order2(a, b, swaps)
	b, c = p.order2(b, c, swaps)
	_, b = p.order2(a, b, swaps)
	return b
}

func (p *prefixSort) reverseRange(a, b int) {
	for i, j := a, b-1; i < j; i, j = i+1, j-1 {
		p.swap(i, j)
	}
}
