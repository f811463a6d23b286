package control

import (
	"math/rand"
	"slices"
	"testing"
)

// The cache keeps the keys client-go's LRU keeps, in its order, even when
// many keys share a hash: a slice, most recent first, is the model — a
// touched key moves to the front, a new one beyond the capacity pushes the
// last out — and a value set through touch is read back by the next touch.
func TestLRUKeepsWhatAnLRUKeeps(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for _, hashes := range []uint64{1, 3, 1 << 62} { // all keys in one chain, few chains, hardly any sharing
		c := newLRU[int, int](50)
		c.hash = func(k int) uint64 { return uint64(k) % hashes }
		var model []int
		values := map[int]int{}
		for i := range 20000 {
			k := rnd.Intn(80)
			v := c.touch(k)
			if j := slices.Index(model, k); j >= 0 {
				if *v != values[k] {
					t.Fatalf("hashes %d, touch %d: key %d holds %d, was set to %d", hashes, i, k, *v, values[k])
				}
				model = slices.Delete(model, j, j+1)
			} else {
				if *v != 0 {
					t.Fatalf("hashes %d, touch %d: new key %d holds %d", hashes, i, k, *v)
				}
				if len(model) == 50 {
					delete(values, model[49])
					model = model[:49]
				}
			}
			model = slices.Insert(model, 0, k)
			*v, values[k] = i, i
			if rnd.Intn(3) == 0 {
				f := model[rnd.Intn(min(2, len(model)))] // the front key or the one behind it
				w := c.touchFront(f)
				if *w != values[f] {
					t.Fatalf("hashes %d: touchFront(%d) holds %d, was set to %d", hashes, f, *w, values[f])
				}
				model = slices.Insert(slices.DeleteFunc(model, func(x int) bool { return x == f }), 0, f)
			}
			if got := c.keys(); !slices.Equal(got, model) {
				t.Fatalf("hashes %d, touch %d: keys %v, want %v", hashes, i, got, model)
			}
		}
		if hashes == 1 && len(c.index) != 1 {
			t.Fatalf("one hash, %d chains", len(c.index))
		}
	}
}
