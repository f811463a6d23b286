package replicaset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// tiedPods makes n pods drawn from few values of every field upstream's
// comparison reads — a handful of nodes, creation and ready seconds, UIDs
// in random order — so that ties, and the comparison's intransitive ties
// (equal times in an age bucket holding different ones), are the rule.
func tiedPods(r *rand.Rand, n int, now time.Time) []*corev1.Pod {
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		created := now.Add(-time.Duration(1+r.IntN(40)) * time.Second)
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Namespace: "default", Name: fmt.Sprintf("web-%05d", i),
				UID:               types.UID(fmt.Sprintf("%08x", r.Uint32())),
				CreationTimestamp: metav1.NewTime(created),
			},
			Spec:   corev1.PodSpec{NodeName: fmt.Sprintf("node-%d", r.IntN(6))},
			Status: corev1.PodStatus{Phase: corev1.PodRunning},
		}
		switch r.IntN(10) {
		case 0:
			p.Spec.NodeName = ""
			p.Status.Phase = corev1.PodPending
		case 1:
			p.Status.Phase = corev1.PodPending
		}
		if p.Status.Phase == corev1.PodRunning && r.IntN(5) > 0 {
			since := created.Add(time.Duration(r.IntN(3)) * time.Second)
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(since)}}
		}
		if r.IntN(8) == 0 {
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "app", RestartCount: int32(r.IntN(2))}}
		}
		if r.IntN(8) == 0 {
			p.Annotations = map[string]string{"controller.kubernetes.io/pod-deletion-cost": fmt.Sprint(r.IntN(3) - 1)}
		}
		pods[i] = p
	}
	return pods
}

// The victims are those of sort.Sort over the pods and their keys —
// upstream's getPodsToDelete sorts with sort.Sort — from a fixed starting
// order, for every gate setting, many sizes and victim counts, ties and
// intransitive ties included.
func TestVictimsAreThoseOfUpstreamsSort(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(1, 17))
	for round := range 300 {
		n := 2 + r.IntN(400)
		pods := tiedPods(r, n, now)
		sortByName(pods)
		related := append(tiedPods(r, r.IntN(50), now), pods...)
		g := gates{PodDeletionCost: r.IntN(4) > 0, LogarithmicScaleDown: r.IntN(4) > 0}
		k := 1 + r.IntN(n-1)

		ref := rankByColocation(pods, related, now, g)
		ref.pods = append([]*corev1.Pod(nil), ref.pods...)
		sort.Sort(ref)
		got := podsToDelete(pods, related, k, now, g)
		if len(got) != k {
			t.Fatalf("round %d: %d victims, want %d", round, len(got), k)
		}
		for i := range got {
			if got[i] != ref.pods[i] {
				t.Fatalf("round %d (%d pods, %d victims, gates %+v): victim %d is %s, sort.Sort gives %s",
					round, n, k, g, i, got[i].Name, ref.pods[i].Name)
			}
		}
		for i, p := range pods {
			if p.Name != fmt.Sprintf("web-%05d", i) {
				t.Fatalf("round %d: the caller's pods were reordered", round)
			}
		}
	}
}

// Sorting positions picks the pods sort.Sort picks sorting the pods
// themselves, for every size from 1 to a few thousand (around 12, where
// sort.Sort stops using insertion sort, and the sizes where it picks its
// pivot from 9 elements instead of 3), over keys with many ties and
// intransitive triples: equal times in one age bucket with UIDs that
// disagree with times in another. sort.Stable, another algorithm, fails it.
func TestVictimPositionsAreThoseOfSortSort(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(7, 17))
	sizes := []int{1, 2, 3, 11, 12, 13, 49, 50, 51, 128, 129, 640, 1280, 2560, 4000}
	for range 60 {
		sizes = append(sizes, 1+r.IntN(3000))
	}
	stableDiffers := false
	for round, n := range sizes {
		pods := tiedPods(r, n, now)
		if round%5 == 4 {
			// A cost beyond what a major key packs: the sort compares whole keys.
			pods[r.IntN(n)].Annotations = map[string]string{"controller.kubernetes.io/pod-deletion-cost": "1073741824"}
		}
		g := gates{PodDeletionCost: r.IntN(4) > 0, LogarithmicScaleDown: r.IntN(4) > 0}
		o := rankByColocation(pods, pods, now, g)
		ref := deletionOrder{pods: slices.Clone(o.pods), keys: slices.Clone(o.keys)}
		sort.Sort(ref)
		for _, k := range []int{n, 1 + r.IntN(n), 1 + r.IntN(1+n/50)} {
			for i, at := range firstVictims(o.keys, k, nil, nil) {
				if o.pods[at] != ref.pods[i] {
					t.Fatalf("round %d (%d of %d pods, gates %+v): position %d holds %s, sort.Sort puts %s there", round, k, n, g, i, o.pods[at].Name, ref.pods[i].Name)
				}
			}
		}
		got := firstVictims(o.keys, n, nil, nil)
		stable := permutedOrder{keys: o.keys, perm: identity(n)}
		sort.Stable(stable)
		stableDiffers = stableDiffers || !slices.Equal(stable.perm, got)
	}
	if !stableDiffers {
		t.Fatal("sort.Stable picked the same pods in every round: the rounds hold too few ties to tell sorts apart")
	}
}

// The test's keys do hold intransitive ties, or the test above would prove
// nothing a transitive sort could not: some a < b, b < c with c < a.
func TestTiedPodsHoldIntransitiveTriples(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	pods := tiedPods(rand.New(rand.NewPCG(7, 17)), 300, now)
	o := rankByColocation(pods, pods, now, defaultGates)
	for i := range o.keys {
		for j := range o.keys {
			if !o.keys[i].before(&o.keys[j]) {
				continue
			}
			for k := range o.keys {
				if o.keys[j].before(&o.keys[k]) && o.keys[k].before(&o.keys[i]) {
					return
				}
			}
		}
	}
	t.Fatal("no intransitive triple among 300 tied pods")
}

func identity(n int) []int32 {
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	return perm
}

// permutedOrder is sort.Interface over positions into keys, for another
// sort than upstream's to be compared with it.
type permutedOrder struct {
	keys []victimKey
	perm []int32
}

func (p permutedOrder) Len() int      { return len(p.perm) }
func (p permutedOrder) Swap(i, j int) { p.perm[i], p.perm[j] = p.perm[j], p.perm[i] }
func (p permutedOrder) Less(i, j int) bool {
	return p.keys[p.perm[i]].before(&p.keys[p.perm[j]])
}

// BenchmarkPodsToDelete500Of10000 is one scale-down sync's choice at 10,000
// replicas: 500 victims (upstream's burst) ranked among 10,000 pods.
func BenchmarkPodsToDelete500Of10000(b *testing.B) { benchmarkPodsToDelete500(b, 10000) }

// BenchmarkPodsToDelete500Of100000 is the same at 100,000 replicas, where the
// keys no longer fit in a cache.
func BenchmarkPodsToDelete500Of100000(b *testing.B) { benchmarkPodsToDelete500(b, 100000) }

// benchmarkPodsToDelete500 chooses 500 victims among n tied pods in name order.
func benchmarkPodsToDelete500(b *testing.B, n int) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	pods := tiedPods(rand.New(rand.NewPCG(2, 17)), n, now)
	sortByName(pods)
	b.ReportAllocs()
	for b.Loop() {
		podsToDelete(pods, pods, 500, now, defaultGates)
	}
}

// A stamp compares as the time it was made from: Equal, After and IsZero,
// across locations, before 1970 and at the zero time.
func TestStampComparesAsItsTime(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 17))
	zones := []*time.Location{time.UTC, time.FixedZone("east", 5*3600), time.FixedZone("west", -7*3600)}
	draw := func() time.Time {
		if r.IntN(8) == 0 {
			return time.Time{}
		}
		base := time.Date(1960+r.IntN(80), 1, 1, 0, 0, 0, 0, time.UTC)
		return base.Add(time.Duration(r.IntN(3)) * time.Second).Add(time.Duration(r.IntN(2)) * time.Nanosecond).In(zones[r.IntN(len(zones))])
	}
	for range 20000 {
		a, b := draw(), draw()
		if r.IntN(3) == 0 {
			b = a.In(zones[r.IntN(len(zones))])
		}
		sa, sb := stampOf(a), stampOf(b)
		if sa.equal(sb) != a.Equal(b) || sa.after(sb) != a.After(b) || sa.zero != a.IsZero() {
			t.Fatalf("%v vs %v: stamp equal %v after %v zero %v; time %v %v %v", a, b, sa.equal(sb), sa.after(sb), sa.zero, a.Equal(b), a.After(b), a.IsZero())
		}
	}
}

// A scale-down sync deletes exactly the pods podsToDelete picks from the
// ReplicaSet's pods in name order and its family's pods, though the
// controller ranks from what its owned index worked out per pod update:
// over random tied pods on few nodes, with pods of a sibling, inactive
// ones and an orphan counting towards a node's rank, an orphan the
// ReplicaSet adopts in the same sync (its pods are then put in name order
// and read afresh), and a second scale-down after the first one's deletions
// were observed (the index's entries then have holes).
func TestScaleDownSyncDeletesThePodsOfPodsToDelete(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 17))
	yes := true
	deploy := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "uid-deploy", Controller: &yes}}
	for round := range 40 {
		n := 3 + r.IntN(120)
		newer, older := newRS("web-new", int32(n)), newRS("web-old", 0)
		newer.OwnerReferences, older.OwnerReferences = deploy, deploy
		newer.Spec.Selector.MatchLabels = map[string]string{"app": "web", "hash": "new"}
		older.Spec.Selector.MatchLabels = map[string]string{"app": "web", "hash": "old"}
		own := func(pods []*corev1.Pod, rs *appsv1.ReplicaSet, hash, prefix string) {
			for i, p := range pods {
				p.Name = fmt.Sprintf("%s-%08x", prefix, r.Uint32()) // not in creation order
				p.Labels = map[string]string{"app": "web", "hash": hash}
				if rs != nil {
					p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}
				}
				if i%7 == 3 {
					p.Status.Phase = corev1.PodSucceeded // inactive: not a rank
				}
			}
		}
		mine, theirs, orphan := tiedPods(r, n, t0), tiedPods(r, r.IntN(80), t0), tiedPods(r, 1, t0)
		own(mine, newer, "new", "web-new")
		own(theirs, older, "old", "web-old")
		own(orphan, nil, "old", "stray")
		if round%3 == 0 {
			adoptee := tiedPods(r, 1, t0)
			own(adoptee, nil, "new", "web-new")
			orphan = append(orphan, adoptee...)
		}
		for _, p := range mine {
			if p.Status.Phase == corev1.PodSucceeded {
				p.Status.Phase = corev1.PodRunning
			}
		}
		objs := []runtime.Object{newer, older}
		for _, p := range slices.Concat(mine, theirs, orphan) {
			objs = append(objs, p)
		}
		h := newHarness(t, false, objs...)
		for step := range 2 {
			current := h.replicaSet("web-new")
			var left []*corev1.Pod
			for _, p := range h.pods() {
				if p.Labels["hash"] == "new" {
					left = append(left, p.DeepCopy())
				}
			}
			var family []*corev1.Pod
			for _, p := range h.pods() {
				family = append(family, p.DeepCopy())
			}
			k := 1 + r.IntN(len(left)-1)
			want := podsToDelete(left, family, k, h.Clock.Now(), defaultGates)
			current.Spec.Replicas = ptr.To(int32(len(left) - k))
			h.Update(current)
			h.observe()
			h.Events.Lines = nil
			if err := h.sync("default/web-new"); err != nil {
				t.Fatal(err)
			}
			var got, wantLines []string
			got = h.Events.Lines
			for _, p := range want {
				wantLines = append(wantLines, "Normal SuccessfulDelete Deleted pod: "+p.Name)
			}
			if !slices.Equal(got, wantLines) {
				t.Fatalf("round %d, scale-down %d (%d pods, %d to delete): events\n%q\nwant\n%q", round, step, len(left), k, got, wantLines)
			}
			h.observe()
			if len(left)-k < 2 || round%3 == 0 {
				// After an adoption the harness does not report every
				// deletion as the owner's (as before the owned index), so
				// a second sync would wait on its expectations.
				break
			}
		}
	}
}

// Comparing UIDs through their heads answers as comparing the strings, for
// strings shorter and longer than a head, sharing prefixes, with zero bytes.
func TestUIDHeadsCompareAsStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	draw := func() string {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = "\x00ab"[r.IntN(3)]
		}
		return string(b)
	}
	for range 100000 {
		a, b := draw(), draw()
		ka, kb := victimKey{uid: a, uidHead: headOf(a)}, victimKey{uid: b, uidHead: headOf(b)}
		if uidBefore(&ka, &kb) != (a < b) {
			t.Fatalf("%q < %q: heads say %v", a, b, uidBefore(&ka, &kb))
		}
	}
}

// A major key orders two keys as before does on the fields it packs:
// different majors decide, equal majors mean those fields are equal. Costs
// and ranks at and beyond the packed range have no major.
func TestMajorKeyOrdersAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 17))
	costs := []int32{0, 1, -1, majorCostBias - 1, -majorCostBias, majorCostBias, -majorCostBias - 1, math.MaxInt32, math.MinInt32}
	ranks := []int32{0, 1, 2, 30, majorRankEnd - 1, majorRankEnd, math.MaxInt32}
	draw := func() victimKey {
		return victimKey{
			unassigned: r.IntN(2) == 0, phase: int8(r.IntN(3)), ready: r.IntN(2) == 0,
			cost: costs[r.IntN(len(costs))], rank: ranks[r.IntN(len(ranks))],
		}
	}
	for range 200000 {
		a, b := draw(), draw()
		ma, okA := a.major()
		mb, okB := b.major()
		inRange := func(k victimKey) bool {
			return k.cost >= -majorCostBias && k.cost < majorCostBias && k.rank >= 0 && k.rank < majorRankEnd
		}
		if okA != inRange(a) || okB != inRange(b) {
			t.Fatalf("%+v has a major: %v; %+v: %v", a, okA, b, okB)
		}
		if !okA || !okB {
			continue
		}
		same := a.unassigned == b.unassigned && a.phase == b.phase && a.ready == b.ready && a.cost == b.cost && a.rank == b.rank
		if (ma == mb) != same {
			t.Fatalf("%+v and %+v: majors equal %v, fields equal %v", a, b, ma == mb, same)
		}
		if ma != mb && (ma < mb) != a.before(&b) {
			t.Fatalf("%+v before %+v: %v, majors say %v", a, b, a.before(&b), ma < mb)
		}
	}
}

// ageBucket is upstream's int64(math.Log2(float64(age))) for every age: at
// and around every power of two (where a float64 logarithm can round up to
// the next bucket), up to the largest duration, and at random.
func TestAgeBucketIsUpstreamsLogarithm(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	check := func(d time.Duration) {
		t.Helper()
		want := int8(-1)
		if d > 0 {
			want = int8(math.Log2(float64(d)))
		}
		if got := ageBucket(now.Add(-d), now); got != want {
			t.Fatalf("age %d ns: bucket %d, upstream's logarithm gives %d", int64(d), got, want)
		}
	}
	for k := range 63 {
		p := int64(1) << k
		for j := int64(-5); j <= 5; j++ {
			if d := p + j; d > -3 {
				check(time.Duration(d))
			}
		}
	}
	check(math.MaxInt64)
	r := rand.New(rand.NewPCG(3, 17))
	for range 200_000 {
		check(time.Duration(r.Int64N(1 << (1 + r.IntN(62)))))
	}
}

// sameLabels answers as reflect.DeepEqual, which upstream asks: nil and
// empty label maps differ.
func TestSameLabelsIsDeepEqual(t *testing.T) {
	labelSets := []map[string]string{nil, {}, {"app": "web"}, {"app": "api"}, {"app": "web", "tier": "1"}, {"tier": "1"}}
	for _, a := range labelSets {
		for _, b := range labelSets {
			if got, want := sameLabels(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("sameLabels(%v, %v) = %v, reflect.DeepEqual says %v", a, b, got, want)
			}
		}
	}
}

// BenchmarkFirstVictims500Of100000 is the choice alone, as the controller
// makes it from keys it keeps per pod (with rooms for the positions and
// major keys): 500 victims among 100,000 tied pods.
func BenchmarkFirstVictims500Of100000(b *testing.B) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	pods := tiedPods(rand.New(rand.NewPCG(2, 17)), 100000, now)
	sortByName(pods)
	keys := rankByColocation(pods, pods, now, defaultGates).keys
	var order []int32
	major := make([]uint64, len(keys))
	b.ReportAllocs()
	for b.Loop() {
		order = firstVictims(keys, 500, order, major)[:0]
	}
}
