package replicaset

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// firstPositions leaves the first n positions where slices.SortFunc leaves
// them, for any n, over orders that are consistent (many equal keys,
// ascending, descending, sawtooth and organ-pipe runs, which take the sort
// through its pattern-breaking, partial insertion and equal-partition
// steps) and over comparisons that are not transitive at all (a random
// tournament), where the sort of a range left unsorted can reach into the
// prefix and the check must catch it.
func TestFirstPositionsAreSortFuncsPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 17))
	shapes := map[string]func(n int) []int{
		"ties":       func(n int) []int { return draw(n, func(int) int { return r.IntN(1 + n/20) }) },
		"ascending":  func(n int) []int { return draw(n, func(i int) int { return i / 3 }) },
		"descending": func(n int) []int { return draw(n, func(i int) int { return n - i/2 }) },
		"sawtooth":   func(n int) []int { return draw(n, func(i int) int { return i % 37 }) },
		"organ pipe": func(n int) []int { return draw(n, func(i int) int { return min(i, n-i) }) },
		"nearly sorted": func(n int) []int {
			v := draw(n, func(i int) int { return i })
			for range 3 {
				i, j := r.IntN(n), r.IntN(n)
				v[i], v[j] = v[j], v[i]
			}
			return v
		},
	}
	sizes := []int{1, 2, 12, 13, 49, 50, 51, 200, 1000, 5000}
	for name, shape := range shapes {
		for _, size := range sizes {
			v := shape(size)
			check(t, name, size, func(a, b int32) int { return v[a] - v[b] }, r)
		}
	}
	for _, size := range sizes {
		beats := make([][]bool, size)
		for i := range beats {
			beats[i] = make([]bool, size)
		}
		for i := range size {
			for j := i + 1; j < size; j++ {
				beats[i][j] = r.IntN(2) == 0
				beats[j][i] = !beats[i][j]
			}
		}
		check(t, "tournament", size, func(a, b int32) int {
			if beats[a][b] {
				return -1
			}
			return 1
		}, r)
	}
}

func draw(n int, at func(i int) int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = at(i)
	}
	return v
}

// check compares firstPositions with slices.SortFunc for a few prefixes.
func check(t *testing.T, shape string, size int, cmp func(a, b int32) int, r *rand.Rand) {
	t.Helper()
	want := identity(size)
	slices.SortFunc(want, cmp)
	for _, n := range []int{1, 1 + r.IntN(size), size / 2, size - 1, size} {
		if n < 1 {
			continue
		}
		got := make([]int32, size)
		firstPositions(got, n, cmp)
		if !slices.Equal(got[:n], want[:n]) {
			t.Fatalf("%s of %d, first %d: %v, slices.SortFunc: %v", shape, size, n, head(got[:n]), head(want[:n]))
		}
	}
}

func head(v []int32) []int32 { return v[:min(len(v), 12)] }
