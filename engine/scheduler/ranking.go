package scheduler

import (
	"fmt"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// maxRankings bounds how many kinds of pod keep a ranking: each costs a
// small update on every placement, and a cluster's pods come in few kinds
// (one per ReplicaSet template, usually fewer).
const maxRankings = 8

// ranking keeps every node in the order pick would choose them for one kind
// of pod (same requests, tolerations and node choice): nodes that fit first,
// best score first. A decision then reads the top of a heap instead of
// walking every node, and a placement moves one node in it, so scheduling a
// rollout costs what its pods do, not pods × nodes. It gives exactly the node
// the walk gives: both take the least under the same total order.
type ranking struct {
	d    *demand
	heap []ranked
	// pos is, by node number (nodeState.id), one more than the node's
	// index in heap; 0 when it is not there. A slice, not a map by name:
	// every swap of every placement writes two entries.
	pos   []int32
	used  uint64   // when it last decided, for eviction
	spare []string // reject's scratch space
}

type ranked struct {
	st    *nodeState
	fits  bool
	score score
}

// before is the heap's order: fitting nodes first, by score; the rest by name,
// only so that the order is total.
func (a ranked) before(b ranked) bool {
	if a.fits != b.fits {
		return a.fits
	}
	if !a.fits {
		return a.st.node.Name < b.st.node.Name
	}
	return a.score.better(b.score)
}

// signature names a kind of pod: what reject and score read of it. It is
// built in a stack buffer with one allocation for the string: every
// scheduling attempt asks for it, and every pod carries tolerations (the
// API server's default not-ready and unreachable ones at least).
func signature(p *corev1.Pod, r amount) string {
	var buf [256]byte
	b := strconv.AppendInt(buf[:0], r.cpu, 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, r.memory, 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, r.pods, 10)
	for _, t := range p.Spec.Tolerations {
		b = appendQuoted(append(b, "|t"...), t.Key, string(t.Operator), t.Value, string(t.Effect))
	}
	if len(p.Spec.NodeSelector) > 0 {
		keys := make([]string, 0, len(p.Spec.NodeSelector))
		for k := range p.Spec.NodeSelector {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = appendQuoted(append(b, "|s"...), k, p.Spec.NodeSelector[k])
		}
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		b = fmt.Appendf(b, "|a %#v", a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms)
	}
	return string(b)
}

// appendQuoted appends each string quoted and preceded by a space, as
// fmt's " %q" does.
func appendQuoted(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = strconv.AppendQuote(append(b, ' '), s)
	}
	return b
}

// rankingFor returns the ranking of d's kind, building it from every node
// the first time, and evicting the longest unused one past maxRankings.
func (c *nodeCache) rankingFor(d *demand) *ranking {
	c.clock++
	if r, ok := c.rankings[d.kind]; ok {
		r.used = c.clock
		return r
	}
	if len(c.rankings) >= maxRankings {
		var oldest string
		var at uint64
		for k, r := range c.rankings {
			if oldest == "" || r.used < at || (r.used == at && k < oldest) {
				oldest, at = k, r.used
			}
		}
		delete(c.rankings, oldest)
	}
	r := &ranking{d: d, heap: make([]ranked, 0, len(c.order)), pos: make([]int32, len(c.ids)), used: c.clock}
	for _, st := range c.order {
		r.place(st.id, len(r.heap))
		r.heap = append(r.heap, c.rank(r, st))
	}
	for i := len(r.heap)/2 - 1; i >= 0; i-- {
		r.down(i)
	}
	c.rankings[d.kind] = r
	return r
}

func (c *nodeCache) rank(r *ranking, st *nodeState) ranked {
	r.spare = c.reject(r.d, st, r.spare[:0])
	if len(r.spare) > 0 {
		return ranked{st: st}
	}
	return ranked{st: st, fits: true, score: c.score(r.d, st)}
}

// rerank moves node name in every ranking after its load or its spec changed.
func (c *nodeCache) rerank(name string) {
	if len(c.rankings) == 0 {
		return
	}
	st, known := c.nodes[name]
	id := c.ids[name]
	for _, r := range c.rankings {
		i, had := r.at(id)
		switch {
		case known && had:
			r.heap[i] = c.rank(r, st)
			r.fix(i)
		case known:
			r.place(id, len(r.heap))
			r.heap = append(r.heap, c.rank(r, st))
			r.up(len(r.heap) - 1)
		case had:
			last := len(r.heap) - 1
			r.swap(i, last)
			r.heap = r.heap[:last]
			r.pos[id] = 0
			if i < last {
				r.fix(i)
			}
		}
	}
}

// best returns the node pick would choose, or "" when none fits.
func (r *ranking) best() string {
	if len(r.heap) == 0 || !r.heap[0].fits {
		return ""
	}
	return r.heap[0].st.node.Name
}

// at is where node number id is in the heap, if it is.
func (r *ranking) at(id int32) (int, bool) {
	if int(id) >= len(r.pos) || r.pos[id] == 0 {
		return 0, false
	}
	return int(r.pos[id]) - 1, true
}

// place records that node number id is at index i of the heap.
func (r *ranking) place(id int32, i int) {
	if n := int(id) + 1; n > len(r.pos) {
		r.pos = append(r.pos, make([]int32, n-len(r.pos))...)
	}
	r.pos[id] = int32(i) + 1
}

func (r *ranking) swap(i, j int) {
	r.heap[i], r.heap[j] = r.heap[j], r.heap[i]
	r.pos[r.heap[i].st.id] = int32(i) + 1
	r.pos[r.heap[j].st.id] = int32(j) + 1
}

func (r *ranking) fix(i int) {
	if !r.down(i) {
		r.up(i)
	}
}

func (r *ranking) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !r.heap[i].before(r.heap[p]) {
			return
		}
		r.swap(i, p)
		i = p
	}
}

// down reports whether the entry moved.
func (r *ranking) down(i int) bool {
	start := i
	n := len(r.heap)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if rt := l + 1; rt < n && r.heap[rt].before(r.heap[l]) {
			m = rt
		}
		if !r.heap[m].before(r.heap[i]) {
			break
		}
		r.swap(i, m)
		i = m
	}
	return i > start
}
