package replicaset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
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

// The victims are those of sort.Stable over the pods and their keys, the
// order upstream's comparison gives from a fixed starting order, for every
// gate setting, many sizes and victim counts, ties and intransitive ties
// included.
func TestVictimsAreThoseOfAStableSort(t *testing.T) {
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
		sort.Stable(ref)
		got := podsToDelete(pods, related, k, now, g)
		if len(got) != k {
			t.Fatalf("round %d: %d victims, want %d", round, len(got), k)
		}
		for i := range got {
			if got[i] != ref.pods[i] {
				t.Fatalf("round %d (%d pods, %d victims, gates %+v): victim %d is %s, sort.Stable gives %s",
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

// stableSorter orders positions exactly as sort.Stable does with the same
// comparison, for every size from 1 to a few thousand (around the block of 20
// and its doublings, where the merges change shape), over keys with many
// ties and intransitive triples: equal times in one age bucket with UIDs
// that disagree with times in another.
func TestStableSorterIsSortStable(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(7, 17))
	sizes := []int{1, 2, 3, 19, 20, 21, 39, 40, 41, 79, 80, 81, 159, 160, 161, 319, 320, 321, 640, 1280, 2560, 4000}
	for range 60 {
		sizes = append(sizes, 1+r.IntN(3000))
	}
	for round, n := range sizes {
		pods := tiedPods(r, n, now)
		g := gates{PodDeletionCost: r.IntN(4) > 0, LogarithmicScaleDown: r.IntN(4) > 0}
		o := rankByColocation(pods, pods, now, g)
		want := identity(n)
		sort.Stable(permutedOrder{keys: o.keys, perm: want})
		got := o.stableOrder()
		if !slices.Equal(got, want) {
			i := 0
			for got[i] == want[i] {
				i++
			}
			t.Fatalf("round %d (%d pods, gates %+v): position %d holds pod %d, sort.Stable puts pod %d there", round, n, g, i, got[i], want[i])
		}
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

// permutedOrder is sort.Interface over positions into keys, for sort.Stable
// to be the reference.
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
func BenchmarkPodsToDelete500Of10000(b *testing.B) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	pods := tiedPods(rand.New(rand.NewPCG(2, 17)), 10000, now)
	sortByName(pods)
	b.ReportAllocs()
	for b.Loop() {
		podsToDelete(pods, pods, 500, now, defaultGates)
	}
}

// BenchmarkPodsToDelete500Of100000 is the same at 100,000 replicas, where the
// keys no longer fit in a cache.
func BenchmarkPodsToDelete500Of100000(b *testing.B) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	pods := tiedPods(rand.New(rand.NewPCG(2, 17)), 100000, now)
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
