package replicaset

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// gates are the upstream feature gates that change which pod goes first on
// scale-down. Both are on by default since Kubernetes 1.22.
type gates struct {
	// PodDeletionCost honours the controller.kubernetes.io/pod-deletion-cost
	// annotation: cheaper pods go first.
	PodDeletionCost bool
	// LogarithmicScaleDown compares ready and creation times in powers of two
	// of their age, so that pods of similar age are picked at random (by UID)
	// instead of always the very newest.
	LogarithmicScaleDown bool
}

var defaultGates = gates{PodDeletionCost: true, LogarithmicScaleDown: true}

// deletionOrder sorts pods so that the best victims for a scale-down come
// first; it is upstream's ActivePodsWithRanks. rank[i] is the number of active
// pods of the same family (ReplicaSets sharing a controller owner) on the node
// of pods[i]: pods that are doubled up on a node are removed first. Each
// pod's sort key is worked out once, so sorting a 10,000-pod ReplicaSet costs
// comparisons, not condition lookups and logarithms.
type deletionOrder struct {
	pods []*corev1.Pod
	keys []victimKey
}

// victimKey is what upstream's comparison reads of one pod, packed in 72
// bytes: a scale-down at 100,000 replicas compares keys scattered over a
// large array, so their size decides how often a comparison waits for
// memory.
type victimKey struct {
	uid string
	// uidHead is uid's first 8 bytes, big-endian, zero-padded: comparing
	// it first decides most UID comparisons without reading the string,
	// which sits elsewhere in memory.
	uidHead       uint64
	readySince    stamp
	created       stamp
	cost          int32
	rank          int32
	restarts      int32
	phase         int8
	readyBucket   int8
	createdBucket int8
	unassigned    bool
	ready         bool
	logarithmic   bool // compare times by age bucket (LogarithmicScaleDown with a known now)
}

// stamp is a time.Time as its comparisons read it: the instant, exactly
// (whole seconds since 1970 and nanoseconds, defined for every time), and
// whether it is the zero time.
type stamp struct {
	sec  int64
	nsec int32
	zero bool
}

func stampOf(t time.Time) stamp {
	return stamp{sec: t.Unix(), nsec: int32(t.Nanosecond()), zero: t.IsZero()}
}

// time is the instant again (in UTC; comparisons do not read the zone).
func (a stamp) time() time.Time {
	if a.zero {
		return time.Time{}
	}
	return time.Unix(a.sec, int64(a.nsec)).UTC()
}

// equal is time.Time.Equal.
func (a stamp) equal(b stamp) bool { return a.sec == b.sec && a.nsec == b.nsec }

// after is time.Time.After.
func (a stamp) after(b stamp) bool { return a.sec > b.sec || a.sec == b.sec && a.nsec > b.nsec }

func newDeletionOrder(pods []*corev1.Pod, rank []int, now time.Time, g gates) deletionOrder {
	o := deletionOrder{pods: pods, keys: make([]victimKey, len(pods))}
	for i, p := range pods {
		facts := factsOf(p)
		o.keys[i] = staticVictimKey(p, facts).at(int32(rank[i]), facts.readySince, p.CreationTimestamp.Time, now, g)
	}
	return o
}

// staticVictimKey is what the comparison reads of p that is p's own: all
// but its rank among its neighbours and the age buckets of its times, which
// at sets. facts are p's.
func staticVictimKey(p *corev1.Pod, facts podFacts) victimKey {
	return victimKey{
		unassigned: p.Spec.NodeName == "",
		phase:      phaseOrder[p.Status.Phase],
		ready:      facts.ready,
		readySince: stampOf(facts.readySince),
		restarts:   maxRestarts(p),
		created:    stampOf(p.CreationTimestamp.Time),
		uid:        string(p.UID),
		uidHead:    headOf(string(p.UID)),
		cost:       deletionCost(p),
	}
}

// at completes a static key for a sync at now: the pod's rank, the age
// buckets of its ready time since and creation time created, and the gates.
func (k victimKey) at(rank int32, since, created, now time.Time, g gates) victimKey {
	k.rank = rank
	if !g.PodDeletionCost {
		k.cost = 0
	}
	if g.LogarithmicScaleDown && !now.IsZero() {
		k.logarithmic = true
		k.readyBucket = ageBucket(since, now)
		k.createdBucket = ageBucket(created, now)
	}
	return k
}

func (o deletionOrder) Len() int { return len(o.pods) }

func (o deletionOrder) Swap(i, j int) {
	o.pods[i], o.pods[j] = o.pods[j], o.pods[i]
	o.keys[i], o.keys[j] = o.keys[j], o.keys[i]
}

// phaseOrder ranks phases from the cheapest to lose to the most expensive; a
// phase missing from the map (Succeeded, Failed, "") counts as Pending.
var phaseOrder = map[corev1.PodPhase]int8{corev1.PodPending: 0, corev1.PodUnknown: 1, corev1.PodRunning: 2}

// Less reports whether pods[i] should be deleted before pods[j].
func (o deletionOrder) Less(i, j int) bool { return o.keys[i].before(&o.keys[j]) }

// before is upstream's comparison: whether the pod of a should be deleted
// before the pod of b.
func (a *victimKey) before(b *victimKey) bool {
	// A pod that is not on a node yet costs nothing to lose. (Upstream
	// compares node names first; an unassigned pod's is empty and an
	// assigned one's is not, so they differ exactly when one is unassigned.)
	if a.unassigned != b.unassigned {
		return a.unassigned
	}
	if a.phase != b.phase {
		return a.phase < b.phase
	}
	if a.ready != b.ready {
		return !a.ready
	}
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	return a.minorBefore(b)
}

// minorBefore is before for two keys whose first five fields (unassigned,
// phase, ready, cost, rank) are equal: where upstream's ties are decided,
// and where its comparison is not transitive.
func (a *victimKey) minorBefore(b *victimKey) bool {
	if a.ready && b.ready && !a.readySince.equal(b.readySince) {
		return newerFirst(a.readySince, b.readySince, a.readyBucket, b.readyBucket, a, b)
	}
	if a.restarts != b.restarts {
		return a.restarts > b.restarts
	}
	if !a.created.equal(b.created) {
		return newerFirst(a.created, b.created, a.createdBucket, b.createdBucket, a, b)
	}
	return false
}

// Bounds of the cost and rank a major key packs: a key outside them has
// none, and its sort compares whole keys.
const (
	majorCostBias = 1 << 23
	majorRankEnd  = 1 << 24
)

// major packs the fields before compares first — unassigned, phase, ready,
// cost, rank — into one number that orders as before does on them: of two
// keys whose majors differ, the smaller is before the other; keys with
// equal majors have those five fields equal. A scale-down sorts 100,000
// keys, and most comparisons are decided by these fields: reading 8 bytes
// of a small array instead of two 72-byte keys spread over megabytes is
// most of their cost. ok is false when cost or rank is out of range.
func (k *victimKey) major() (m uint64, ok bool) {
	if k.cost < -majorCostBias || k.cost >= majorCostBias || k.rank < 0 || k.rank >= majorRankEnd || k.phase < 0 || k.phase > 3 {
		return 0, false
	}
	var assigned, ready uint64
	if !k.unassigned {
		assigned = 1 // unassigned first
	}
	if k.ready {
		ready = 1 // not ready first
	}
	return assigned<<51 | uint64(k.phase)<<49 | ready<<48 |
			uint64(k.cost+majorCostBias)<<24 | // cheaper first
			uint64(majorRankEnd-1-k.rank), // more neighbours first
		true
}

// newerFirst orders two different times so that the more recent (or the
// unknown, zero one) comes first. With LogarithmicScaleDown, times whose ages
// fall in the same power-of-two bucket are equal and the UID decides, which
// spreads scale-down over pods of similar age.
func newerFirst(ta, tb stamp, ba, bb int8, a, b *victimKey) bool {
	if !a.logarithmic || ta.zero || tb.zero {
		return afterOrZero(ta, tb)
	}
	if ba == bb {
		return uidBefore(a, b)
	}
	return ba < bb
}

// uidBefore is a.uid < b.uid. Heads compare as the strings' first 8 bytes
// (a shorter string padded with zeros); only equal heads need the strings.
func uidBefore(a, b *victimKey) bool {
	if a.uidHead != b.uidHead {
		return a.uidHead < b.uidHead
	}
	return a.uid < b.uid
}

// headOf packs s's first 8 bytes big-endian, zero-padded.
func headOf(s string) uint64 {
	var h uint64
	for i := range 8 {
		h <<= 8
		if i < len(s) {
			h |= uint64(s[i])
		}
	}
	return h
}

// afterOrZero reports whether t1 is zero (when either is) or after t2.
func afterOrZero(t1, t2 stamp) bool {
	if t1.zero || t2.zero {
		return t1.zero
	}
	return t1.after(t2)
}

// ageBucket is upstream's int64(math.Log2(float64(age in nanoseconds))) (at
// most 63), or -1 for a time not in the past. A scale-down works it out
// twice for every pod it ranks, on each of its syncs.
func ageBucket(t, now time.Time) int8 {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	if d < exactBucketEnd {
		// Below 2^47 the age converts to float64 exactly, and the logarithm
		// of a number in [2^k, 2^(k+1)) rounds to k+1 only within 2^-47 of
		// 2^(k+1) relatively, closer than any integer of that size is: the
		// bucket is the index of the highest set bit.
		return int8(bits.Len64(uint64(d)) - 1)
	}
	return int8(math.Log2(float64(d)))
}

// exactBucketEnd is 2^47 ns, about 39 hours: the ages ageBucket reads from
// their highest bit.
const exactBucketEnd = 1 << 47

// readySince is when the pod last became ready; zero if it is not ready.
func readySince(p *corev1.Pod) time.Time {
	if c := model.PodCondition(&p.Status, corev1.PodReady); c != nil && c.Status == corev1.ConditionTrue {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

func maxRestarts(p *corev1.Pod) int32 {
	var n int32
	for _, c := range p.Status.ContainerStatuses {
		n = max(n, c.RestartCount)
	}
	return n
}

// deletionCost reads the pod-deletion-cost annotation as the API validates
// it: a base-10 int32 without '+' or leading zeros. Anything else counts as 0.
func deletionCost(p *corev1.Pod) int32 {
	v, ok := p.Annotations[model.PodDeletionCostAnnotation]
	if !ok || v == "" {
		return 0
	}
	if c := v[0]; c != '-' && !(c >= '1' && c <= '9') && v != "0" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// podsToDelete picks n victims among pods (already in a fixed order). related
// are the active and inactive pods of every ReplicaSet in the same family;
// only active ones count towards a node's rank. Deleting all pods needs no
// ranking, as upstream skips it. The controller ranks from its owned index
// (Controller.victims); this is the same choice from pods alone.
func podsToDelete(pods, related []*corev1.Pod, n int, now time.Time, g gates) []*corev1.Pod {
	if n <= 0 {
		return nil
	}
	if n < len(pods) {
		o := rankByColocation(pods, related, now, g)
		victims := make([]*corev1.Pod, n)
		for i, at := range firstVictims(o.keys, n, nil, nil) {
			victims[i] = o.pods[at]
		}
		return victims
	}
	return pods
}

// firstVictims are the positions in keys of the first n of the order
// sort.Sort leaves them in: upstream's getPodsToDelete sorts its pods with
// sort.Sort. Sorting positions instead of pods asks the comparison the same
// questions about the same keys and makes the same swaps, so it is the same
// order, whatever the comparison's ties do (upstream's is not transitive on
// them: any other algorithm, sort.Stable included, can pick other victims).
// slices.SortFunc is sort.Sort's algorithm (both are generated from one
// pattern-defeating quicksort, asking only whether a is less than b) without
// an interface call per comparison; firstPositions runs it only as far as
// the first n places need.
//
// order and major are room for the positions and the major keys (a sync of
// a 100,000-pod ReplicaSet would otherwise allocate 1.2 MB for them); the
// positions returned are in order's room.
func firstVictims(keys []victimKey, n int, order []int32, major []uint64) []int32 {
	perm := slices.Grow(order[:0], len(keys))[:len(keys)]
	major = majors(keys, major)
	firstPositions(perm, n, func(x, y int32) int {
		if major != nil {
			if mx, my := major[x], major[y]; mx != my {
				return less(mx < my)
			}
			return less(keys[x].minorBefore(&keys[y]))
		}
		return less(keys[x].before(&keys[y]))
	})
	return perm[:n]
}

// less is a comparison's answer for a sort that asks only whether it is
// negative.
func less(before bool) int {
	if before {
		return -1
	}
	return 1
}

// majors are the major keys of keys, written over room (grown as needed),
// or nil if one has none.
func majors(keys []victimKey, room []uint64) []uint64 {
	out := slices.Grow(room[:0], len(keys))[:len(keys)]
	for i := range keys {
		m, ok := keys[i].major()
		if !ok {
			return nil
		}
		out[i] = m
	}
	return out
}

// rankByColocation ranks each pod by the number of active related pods on
// its node. The order it returns is in pods' order and shares pods.
func rankByColocation(pods, related []*corev1.Pod, now time.Time, g gates) deletionOrder {
	onNode := make(map[string]int)
	for _, p := range related {
		if model.IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	rank := make([]int, len(pods))
	for i, p := range pods {
		rank[i] = onNode[p.Spec.NodeName]
	}
	return newDeletionOrder(pods, rank, now, g)
}
