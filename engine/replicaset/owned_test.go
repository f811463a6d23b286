package replicaset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// seen lists what podsOf reports for uid: "name:match", sorted.
func seen(x *ownedIndex, uid types.UID, sel labelMatcher, activeOnly bool) []string {
	var out []string
	x.podsOf(uid, "default", sel, nil, activeOnly, false, func(e *ownedPod, matches bool, _ podFacts) {
		m := "no"
		if matches {
			m = "yes"
		}
		out = append(out, e.pod.Name+":"+m)
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
	x := newOwnedIndex("ReplicaSet")

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

// Each index files its own kind's pods only: the ReplicationController
// controller's holds none of a ReplicaSet's, and a pod taken over by a
// controller of another kind leaves the index it was in, so its former
// owner no longer counts it.
func TestOwnedIndexFilesOnlyItsOwnKind(t *testing.T) {
	rs := newRS("a", 2)
	web := newLabelMatcher(labels.SelectorFromSet(labels.Set{"app": "web"}))
	replicaSets, controllers := newOwnedIndex("ReplicaSet"), newOwnedIndex("ReplicationController")
	p1 := podOf(rs, "ReplicaSet", "p1", "n1", corev1.PodRunning, nil)
	p2 := podOf(rs, "ReplicaSet", "p2", "n1", corev1.PodRunning, nil)
	for _, p := range []*corev1.Pod{p1, p2} {
		replicaSets.observe(p)
		controllers.observe(p)
	}
	if n := controllers.count(rs.UID); n != 0 {
		t.Errorf("the ReplicationController index filed %d of a ReplicaSet's pods", n)
	}
	taken := podOf(rs, "StatefulSet", "p2", "n1", corev1.PodRunning, nil)
	replicaSets.observe(taken)
	if got := seen(replicaSets, rs.UID, web, true); !slices.Equal(got, []string{"p1:yes"}) {
		t.Errorf("after p2 was taken over by a StatefulSet the ReplicaSet's pods are %v, want [p1:yes]", got)
	}
}

// Through any sequence of creations, status updates, moves between owners,
// releases and deletions, every owner's entries are exactly the pods last
// filed under it, as a plain map from pod to owner says, each the object
// last observed, and asked in name order they come in name order (entries
// leave holes on deletion, are compacted and sorted, and an update must
// still land on its pod's entry).
func TestOwnedIndexAgreesWithAMapThroughChurn(t *testing.T) {
	owners := []*appsv1.ReplicaSet{newRS("a", 1), newRS("b", 1), newRS("c", 1)}
	web := newLabelMatcher(labels.SelectorFromSet(labels.Set{"app": "web"}))
	x := newOwnedIndex("ReplicaSet")
	want := map[string]types.UID{} // pod name → owner
	latest := map[string]*corev1.Pod{}
	r := rand.New(rand.NewPCG(3, 17))
	for step := range 5000 {
		name := fmt.Sprintf("p%03d", r.IntN(200))
		op := r.IntN(6)
		if step%1000 >= 750 {
			op = 0 // a scale-down: enough holes to compact
		}
		switch op {
		case 0:
			x.remove(podOf(nil, "", name, "n1", corev1.PodRunning, nil))
			delete(want, name)
		case 1:
			x.observe(podOf(nil, "", name, "n1", corev1.PodRunning, nil))
			delete(want, name)
		default:
			o := owners[r.IntN(len(owners))]
			p := podOf(o, "ReplicaSet", name, fmt.Sprintf("n%d", r.IntN(4)), corev1.PodRunning, nil)
			x.observe(p)
			want[name] = o.UID
			latest[name] = p
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
			if r.IntN(10) > 0 {
				continue // mostly unordered reads, so that pods are added out of order in between
			}
			var inOrder []string
			x.podsOf(o.UID, "default", web, nil, false, true, func(e *ownedPod, _ bool, _ podFacts) {
				if e.pod != latest[e.pod.Name] {
					t.Fatalf("step %d: %s holds an old object of %s", step, o.Name, e.pod.Name)
				}
				if e.node != x.nodes[e.pod.Spec.NodeName] {
					t.Fatalf("step %d: %s on node %s has node number %d", step, e.pod.Name, e.pod.Spec.NodeName, e.node)
				}
				inOrder = append(inOrder, e.pod.Name+":yes")
			})
			if !slices.Equal(inOrder, wantNames) {
				t.Fatalf("step %d: %s in name order gives %v, want %v", step, o.Name, inOrder, wantNames)
			}
		}
	}
}

// The tally the owned index keeps per owner, as pods are created, change
// labels, phase, readiness, namespace and owner, and go, is always exactly
// what counting the pods afresh gives — for the selector and template a sync
// asks with, also when a sync asks with another one (a new template).
func TestTallyEqualsARecountThroughChurn(t *testing.T) {
	owners := []*appsv1.ReplicaSet{newRS("a", 1), newRS("b", 1)}
	sels := []labels.Set{{"app": "web"}, {"tier": "frontend"}, {"app": "web", "tier": "frontend"}}
	labelSets := []map[string]string{
		{"app": "web"}, {"app": "web", "tier": "frontend"}, {"tier": "frontend"}, {"app": "api"}, nil,
	}
	phases := []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed}
	x := newOwnedIndex("ReplicaSet")
	latest := map[string]*corev1.Pod{}
	asked := map[types.UID][2]int{} // owner → selector, template (indexes into sels)
	r := rand.New(rand.NewPCG(5, 23))
	for step := range 20000 {
		name := fmt.Sprintf("p%03d", r.IntN(150))
		switch op := r.IntN(10); {
		case op == 0:
			if p := latest[name]; p != nil {
				x.remove(p)
				delete(latest, name)
			}
		default:
			var o metav1.Object // nil: an orphan
			if r.IntN(8) > 0 {
				o = owners[r.IntN(len(owners))]
			}
			var since *time.Time
			if r.IntN(2) == 0 {
				since = ago(time.Duration(r.IntN(100)) * time.Second)
			}
			p := podOf(o, "ReplicaSet", name, fmt.Sprintf("n%d", r.IntN(3)), phases[r.IntN(len(phases))], since)
			p.Labels = labelSets[r.IntN(len(labelSets))]
			if r.IntN(10) == 0 {
				p.Namespace = "elsewhere"
			}
			if r.IntN(10) == 0 {
				p.DeletionTimestamp = &metav1.Time{Time: t0}
			}
			if old := latest[name]; old != nil && old.Namespace != p.Namespace {
				x.remove(old) // another namespace is another pod
			}
			x.observe(p)
			latest[name] = p
		}
		for _, o := range owners {
			if r.IntN(200) == 0 || step == 0 {
				asked[o.UID] = [2]int{r.IntN(len(sels)), r.IntN(len(sels))}
			}
			a := asked[o.UID]
			sel, tmpl := labels.SelectorFromSet(sels[a[0]]), labels.SelectorFromSet(sels[a[1]])
			var want podTally
			for _, p := range latest {
				ref := metav1.GetControllerOfNoCopy(p)
				if ref == nil || ref.UID != o.UID || p.Namespace != "default" || !model.IsPodActive(p) {
					continue
				}
				want.active++
				if !sel.Matches(labels.Set(p.Labels)) {
					continue
				}
				want.claimed++
				if tmpl.Matches(labels.Set(p.Labels)) {
					want.labelled++
				}
				if model.IsPodReady(p) {
					want.ready++
				}
			}
			if r.IntN(5) == 0 {
				// A scale-down's family count asks with a sibling's selector
				// in between; the tally must not read its matches.
				x.podsOf(o.UID, "default", newLabelMatcher(labels.SelectorFromSet(sels[r.IntN(len(sels))])), nil, false, false, func(*ownedPod, bool, podFacts) {})
			}
			if got := x.tallied(o.UID, "default", newLabelMatcher(sel), newLabelMatcher(tmpl)); got != want {
				t.Fatalf("step %d: %s tallies %+v, a recount gives %+v", step, o.Name, got, want)
			}
		}
	}
}
