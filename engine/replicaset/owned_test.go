package replicaset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// seen lists what podsOf reports for uid: "name:match", sorted.
func seen(x *ownedIndex, uid types.UID, sel labelMatcher, activeOnly bool) []string {
	var out []string
	x.podsOf(uid, "default", sel, nil, activeOnly, func(p *corev1.Pod, matches bool, _ podFacts) {
		m := "no"
		if matches {
			m = "yes"
		}
		out = append(out, p.Name+":"+m)
	})
	slices.Sort(out)
	return out
}

// The owned index answers what the lister's controller-uid index and a
// fresh selector match would: pods follow their controller reference, a
// relabelled pod is matched again, a different selector is matched afresh,
// and removed or released pods are gone.
func TestOwnedIndexFollowsPodEvents(t *testing.T) {
	a, b := newRS("a", 2), newRS("b", 2)
	web := newLabelMatcher(labels.SelectorFromSet(labels.Set{"app": "web"}))
	front := newLabelMatcher(labels.SelectorFromSet(labels.Set{"tier": "frontend"}))
	x := newOwnedIndex()

	p1 := podOf(a, "ReplicaSet", "p1", "n1", corev1.PodRunning, nil)
	p2 := podOf(a, "ReplicaSet", "p2", "n1", corev1.PodSucceeded, nil)
	p3 := podOf(b, "ReplicaSet", "p3", "n2", corev1.PodPending, nil)
	orphan := podOf(nil, "", "o1", "n2", corev1.PodRunning, nil)
	for _, p := range []*corev1.Pod{p1, p2, p3, orphan} {
		x.observe(p)
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
	check("a, active", seen(x, a.UID, web, true), []string{"p1:yes"})
	check("a, all", seen(x, a.UID, web, false), []string{"p1:yes", "p2:yes"})
	check("b", seen(x, b.UID, web, true), []string{"p3:yes"})

	// Relabelled: the cached match is dropped with the old object.
	relabelled := p1.DeepCopy()
	relabelled.Labels = map[string]string{"app": "api", "tier": "frontend"}
	x.observe(relabelled)
	check("a after relabel", seen(x, a.UID, web, true), []string{"p1:no"})
	// Another selector is matched afresh, not read from the cache.
	check("a, other selector", seen(x, a.UID, front, true), []string{"p1:yes"})
	check("a, first selector again", seen(x, a.UID, web, true), []string{"p1:no"})

	// Adopted by b: filed under b only.
	moved := p2.DeepCopy()
	moved.OwnerReferences = p3.OwnerReferences
	x.observe(moved)
	check("a after move", seen(x, a.UID, web, false), []string{"p1:no"})
	check("b after move", seen(x, b.UID, web, false), []string{"p2:yes", "p3:yes"})

	// Released (no controller) and deleted: gone.
	released := p3.DeepCopy()
	released.OwnerReferences = nil
	x.observe(released)
	x.remove(p2)
	check("b after release and delete", seen(x, b.UID, web, false), nil)
	if n := x.count(b.UID); n != 0 {
		t.Errorf("b still has %d pods filed", n)
	}
	// Another namespace is not this owner's, whatever its reference says.
	other := podOf(a, "ReplicaSet", "p9", "n1", corev1.PodRunning, nil)
	other.Namespace = "elsewhere"
	x.observe(other)
	check("a, other namespace left out", seen(x, a.UID, web, true), []string{"p1:no"})
}

// Through any sequence of creations, status updates, moves between owners,
// releases and deletions, every owner's entries are exactly the pods last
// filed under it, as a plain map from pod to owner says (entries move when
// a deletion fills the gap with the last one).
func TestOwnedIndexAgreesWithAMapThroughChurn(t *testing.T) {
	owners := []*appsv1.ReplicaSet{newRS("a", 1), newRS("b", 1), newRS("c", 1)}
	web := newLabelMatcher(labels.SelectorFromSet(labels.Set{"app": "web"}))
	x := newOwnedIndex()
	want := map[string]types.UID{} // pod name → owner
	r := rand.New(rand.NewPCG(3, 17))
	for step := range 5000 {
		name := fmt.Sprintf("p%03d", r.IntN(200))
		switch r.IntN(6) {
		case 0:
			x.remove(podOf(nil, "", name, "n1", corev1.PodRunning, nil))
			delete(want, name)
		case 1:
			x.observe(podOf(nil, "", name, "n1", corev1.PodRunning, nil))
			delete(want, name)
		default:
			o := owners[r.IntN(len(owners))]
			x.observe(podOf(o, "ReplicaSet", name, "n1", corev1.PodRunning, nil))
			want[name] = o.UID
		}
		for _, o := range owners {
			var wantNames []string
			for n, uid := range want {
				if uid == o.UID {
					wantNames = append(wantNames, n+":yes")
				}
			}
			slices.Sort(wantNames)
			if got := seen(x, o.UID, web, false); !slices.Equal(got, wantNames) {
				t.Fatalf("step %d: %s files %v, want %v", step, o.Name, got, wantNames)
			}
		}
	}
}
