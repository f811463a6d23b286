package cluster

import (
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// podTally is what the blocker line reads of one ReplicaSet's pods in one
// namespace, kept up to date as its pods come, change and go (retally), so
// that the line of a rollout of thousands of pods costs what changed and not
// a pass over every pod on every redraw (13% of the live console's CPU at
// 3,000 pods). It holds the same findings podScan.add makes pod by pod;
// podScan.addTally reads them. What depends on the clock (how long a pod has
// been ready against minReadySeconds) is kept as the times themselves and
// judged when read.
type podTally struct {
	pods        int // entries counted, whatever their state
	terminating int
	graces      []graceCount // the terminating pods by grace period
	// The active pods the line may name, each in a heap with the one it
	// would name on top.
	pulls         entryHeap // image cannot be pulled
	crashes       entryHeap // restarted, image pulled
	unschedulable entryHeap
	notReady      entryHeap // bound, schedulable, not ready
	// ready counts the bound, ready pods by when they became ready,
	// oldest first: pods become ready at the latest time, so a new one
	// is usually appended.
	ready []readyCount
}

// tallyKey names what is kept of one owner's pods (a podTally, pod rows):
// the controlling owner's UID and the namespace, which views read pods in.
type tallyKey struct {
	owner     types.UID
	namespace string
}

type graceCount struct {
	grace int64
	n     int
}

type readyCount struct {
	since time.Time
	n     int
}

// The heaps a pod entry can be in, each its place (podEntry.heapAt).
const (
	heapPulls = iota
	heapCrashes
	heapUnschedulable
	heapNotReady
	heapKinds
)

func newPodTally() *podTally {
	return &podTally{
		pulls:         entryHeap{kind: heapPulls},
		crashes:       entryHeap{kind: heapCrashes},
		unschedulable: entryHeap{kind: heapUnschedulable},
		notReady:      entryHeap{kind: heapNotReady},
	}
}

// retally moves a pod's entry in the tallies from was (nil: a new pod) to
// pe (nil: the pod is gone). An update that leaves what the tally reads as
// it was only puts pe in was's places.
func (c *Cluster) retally(was, pe *podEntry) {
	if was != nil && pe != nil && was.tally != nil && sameTallyKey(was, pe) {
		pe.tally = was.tally
		if sameTallied(&was.facts, &pe.facts) {
			pe.tally.replace(was, pe)
			return
		}
		pe.tally.count(was, -1)
		pe.tally.count(pe, 1)
		return
	}
	if was != nil && was.tally != nil {
		t := was.tally
		if t.count(was, -1); t.pods == 0 {
			delete(c.tallies, tallyKey{was.facts.owner, was.pod.Namespace})
		}
	}
	if pe != nil && pe.facts.owner != "" {
		key := tallyKey{pe.facts.owner, pe.pod.Namespace}
		t := c.tallies[key]
		if t == nil {
			t = newPodTally()
			c.tallies[key] = t
		}
		pe.tally = t
		t.count(pe, 1)
	}
}

func sameTallyKey(a, b *podEntry) bool {
	return a.facts.owner == b.facts.owner && a.pod.Namespace == b.pod.Namespace
}

// sameTallied reports whether two versions of a pod are counted alike:
// in the same heaps, in the same place, with the same ready time.
func sameTallied(a, b *podFacts) bool {
	return a.terminating == b.terminating && a.grace == b.grace && a.active == b.active &&
		a.pullReason == b.pullReason && a.restarts == b.restarts && a.unschedulable == b.unschedulable &&
		a.bound == b.bound && a.ready == b.ready && a.since.Equal(b.since)
}

// replace puts pe in was's places, which are pe's too (sameTallied).
func (t *podTally) replace(was, pe *podEntry) {
	for _, h := range []*entryHeap{&t.pulls, &t.crashes, &t.unschedulable, &t.notReady} {
		if i := int(was.heapAt[h.kind]); i < len(h.list) && h.list[i] == was {
			h.set(i, pe)
		}
	}
}

func (t *podTally) count(pe *podEntry, n int) {
	t.pods += n
	f := &pe.facts
	if f.terminating {
		t.terminating += n
		t.graces = countGrace(t.graces, f.grace, n)
		return
	}
	if !f.active {
		return
	}
	var h *entryHeap
	switch {
	case f.pullReason != "":
		h = &t.pulls
	case f.restarts > 0:
		h = &t.crashes
	}
	t.file(h, pe, n)
	h = nil
	switch {
	case f.unschedulable:
		h = &t.unschedulable
	case !f.bound:
	case !f.ready:
		h = &t.notReady
	default:
		t.ready = countReady(t.ready, f.since, n)
	}
	t.file(h, pe, n)
}

// file puts pe in (n = 1) or takes it out of (n = -1) the heap h, if any.
func (t *podTally) file(h *entryHeap, pe *podEntry, n int) {
	switch {
	case h == nil:
	case n > 0:
		h.push(pe)
	default:
		h.remove(pe)
	}
}

func countGrace(gs []graceCount, grace int64, n int) []graceCount {
	for i := range gs {
		if gs[i].grace == grace {
			if gs[i].n += n; gs[i].n == 0 {
				gs = slices.Delete(gs, i, i+1)
			}
			return gs
		}
	}
	return append(gs, graceCount{grace, n})
}

func countReady(rs []readyCount, since time.Time, n int) []readyCount {
	i, found := slices.BinarySearchFunc(rs, since, func(r readyCount, t time.Time) int { return r.since.Compare(t) })
	switch {
	case !found:
		return slices.Insert(rs, i, readyCount{since, n})
	case rs[i].n+n == 0:
		return slices.Delete(rs, i, i+1)
	}
	rs[i].n += n
	return rs
}

// addTally is add over every pod t counts, owned by owner.
func (s *podScan) addTally(t *podTally, owner types.UID) {
	s.terminating += t.terminating
	for _, g := range t.graces {
		s.grace = max(s.grace, g.grace)
	}
	if s.newRS == "" || owner != s.newRS {
		return
	}
	if top := t.pulls.top(); top != nil {
		if s.pullBad == 0 || pullFirst(top.facts.pullReason, top.pod.Name, s.pullReason, s.pullPod) {
			s.pullImage, s.pullReason, s.pullPod = top.facts.pullImage, top.facts.pullReason, top.pod.Name
		}
		s.pullBad += len(t.pulls.list)
	}
	if top := t.crashes.top(); top != nil && s.crashFirst(&top.facts) {
		s.crash, s.crashRestarts = top.pod, top.facts.restarts
	}
	if top := t.unschedulable.top(); top != nil && (s.unschedulable == nil || top.pod.Name < s.unschedulable.Name) {
		s.unschedulable = top.pod
	}
	if top := t.notReady.top(); top != nil && s.notReadyFirst(&top.facts) {
		s.notReady, s.notReadyAt = top.pod, top.facts.since
	}
	if s.minReady <= 0 {
		return
	}
	// Newest first: once one is available, so are all older ones.
	for i := len(t.ready) - 1; i >= 0; i-- {
		r := t.ready[i]
		left := r.since.Add(s.minReady).Sub(s.now)
		if left < 0 {
			break
		}
		if s.readyNotAvailable == 0 || left < s.availableIn {
			s.availableIn = left
		}
		s.readyNotAvailable += r.n
	}
}

// pullFirst reports whether a pod that cannot pull its image, with reason
// and name, is named before the one with reason b and name bName: a pod in
// back-off before one at its first failure, then by name.
func pullFirst(reason, name, b, bName string) bool {
	if backOff := reason == "ImagePullBackOff"; backOff != (b == "ImagePullBackOff") {
		return backOff
	}
	return name < bName
}

// entryHeap is a heap of pod entries with the one the blocker would name
// on top. Each entry knows its place (podEntry.heapAt), so that an entry
// leaves the heap without a search.
type entryHeap struct {
	kind int
	list []*podEntry
}

func (h *entryHeap) top() *podEntry {
	if len(h.list) == 0 {
		return nil
	}
	return h.list[0]
}

// first reports whether a is named before b.
func (h *entryHeap) first(a, b *podEntry) bool {
	fa, fb := &a.facts, &b.facts
	switch h.kind {
	case heapPulls:
		return pullFirst(fa.pullReason, fa.pod.Name, fb.pullReason, fb.pod.Name)
	case heapCrashes:
		return fa.restarts > fb.restarts || fa.restarts == fb.restarts && fa.pod.Name < fb.pod.Name
	case heapNotReady:
		if c := fa.since.Compare(fb.since); c != 0 {
			return c < 0
		}
	}
	return fa.pod.Name < fb.pod.Name
}

func (h *entryHeap) set(i int, pe *podEntry) {
	h.list[i] = pe
	pe.heapAt[h.kind] = int32(i)
}

func (h *entryHeap) push(pe *podEntry) {
	h.list = append(h.list, pe)
	h.set(len(h.list)-1, pe)
	h.up(len(h.list) - 1)
}

func (h *entryHeap) remove(pe *podEntry) {
	i := int(pe.heapAt[h.kind])
	if i >= len(h.list) || h.list[i] != pe {
		return
	}
	last := len(h.list) - 1
	if i != last {
		h.set(i, h.list[last])
	}
	h.list[last] = nil
	h.list = h.list[:last]
	if i < last {
		if !h.up(i) {
			h.down(i)
		}
	}
}

// up moves the entry at i towards the top; it reports whether it moved.
func (h *entryHeap) up(i int) bool {
	moved := false
	for i > 0 {
		parent := (i - 1) / 2
		if !h.first(h.list[i], h.list[parent]) {
			break
		}
		a, b := h.list[i], h.list[parent]
		h.set(i, b)
		h.set(parent, a)
		i, moved = parent, true
	}
	return moved
}

func (h *entryHeap) down(i int) {
	n := len(h.list)
	for {
		best := i
		if l := 2*i + 1; l < n && h.first(h.list[l], h.list[best]) {
			best = l
		}
		if r := 2*i + 2; r < n && h.first(h.list[r], h.list[best]) {
			best = r
		}
		if best == i {
			return
		}
		a, b := h.list[i], h.list[best]
		h.set(i, b)
		h.set(best, a)
		i = best
	}
}
