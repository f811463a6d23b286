package replicaset

import (
	"math"
	"sort"
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
// of pods[i]: pods that are doubled up on a node are removed first.
type deletionOrder struct {
	pods  []*corev1.Pod
	rank  []int
	now   time.Time
	gates gates
}

func (o deletionOrder) Len() int { return len(o.pods) }

func (o deletionOrder) Swap(i, j int) {
	o.pods[i], o.pods[j] = o.pods[j], o.pods[i]
	o.rank[i], o.rank[j] = o.rank[j], o.rank[i]
}

// phaseOrder ranks phases from the cheapest to lose to the most expensive; a
// phase missing from the map (Succeeded, Failed, "") counts as Pending.
var phaseOrder = map[corev1.PodPhase]int{corev1.PodPending: 0, corev1.PodUnknown: 1, corev1.PodRunning: 2}

// Less reports whether pods[i] should be deleted before pods[j].
func (o deletionOrder) Less(i, j int) bool {
	a, b := o.pods[i], o.pods[j]
	// A pod that is not on a node yet costs nothing to lose.
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if pa, pb := phaseOrder[a.Status.Phase], phaseOrder[b.Status.Phase]; pa != pb {
		return pa < pb
	}
	readyA, readyB := model.IsPodReady(a), model.IsPodReady(b)
	if readyA != readyB {
		return !readyA
	}
	if o.gates.PodDeletionCost {
		if ca, cb := deletionCost(a), deletionCost(b); ca != cb {
			return ca < cb
		}
	}
	if o.rank[i] != o.rank[j] {
		return o.rank[i] > o.rank[j]
	}
	if readyA && readyB {
		ta, tb := readySince(a), readySince(b)
		if !ta.Equal(tb) {
			return o.newerFirst(ta, tb, a, b)
		}
	}
	if ra, rb := maxRestarts(a), maxRestarts(b); ra != rb {
		return ra > rb
	}
	ca, cb := a.CreationTimestamp.Time, b.CreationTimestamp.Time
	if !ca.Equal(cb) {
		return o.newerFirst(ca, cb, a, b)
	}
	return false
}

// newerFirst orders two different times so that the more recent (or the
// unknown, zero one) comes first. With LogarithmicScaleDown, times whose ages
// fall in the same power-of-two bucket are equal and the UID decides, which
// spreads scale-down over pods of similar age.
func (o deletionOrder) newerFirst(ta, tb time.Time, a, b *corev1.Pod) bool {
	if !o.gates.LogarithmicScaleDown || o.now.IsZero() || ta.IsZero() || tb.IsZero() {
		return afterOrZero(ta, tb)
	}
	ba, bb := ageBucket(ta, o.now), ageBucket(tb, o.now)
	if ba == bb {
		return a.UID < b.UID
	}
	return ba < bb
}

// afterOrZero reports whether t1 is zero (when either is) or after t2.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// ageBucket is floor(log2(age in nanoseconds)), or -1 for a time not in the past.
func ageBucket(t, now time.Time) int64 {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	return int64(math.Log2(float64(d)))
}

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
// ranking, as upstream skips it.
func podsToDelete(pods, related []*corev1.Pod, n int, now time.Time, g gates) []*corev1.Pod {
	if n <= 0 {
		return nil
	}
	if n < len(pods) {
		o := rankByColocation(pods, related, now, g)
		sort.Stable(o)
		pods = o.pods
	}
	return pods[:min(n, len(pods))]
}

// rankByColocation ranks each pod by the number of active related pods on
// its node. It sorts a copy, never the caller's slice.
func rankByColocation(pods, related []*corev1.Pod, now time.Time, g gates) deletionOrder {
	onNode := make(map[string]int)
	for _, p := range related {
		if model.IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	o := deletionOrder{pods: append([]*corev1.Pod(nil), pods...), rank: make([]int, len(pods)), now: now, gates: g}
	for i, p := range o.pods {
		o.rank[i] = onNode[p.Spec.NodeName]
	}
	return o
}
