package watch

import (
	"maps"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/cluster"
)

// TestFeedMarksWhatChanged: the reflector's store marks an object when it
// arrives, changes resourceVersion or goes, and a relist marks what the list
// no longer has and what is new in it — nothing it already held as listed.
func TestFeedMarksWhatChanged(t *testing.T) {
	dirty := newDirtySet()
	s := &source{kind: "Pod"}
	f := newFeed(s, dirty, trim)
	s.feed = f
	pod := func(name, rv string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
	}
	marked := func() []string {
		var names []string
		for ref := range maps.Keys(dirty.take()) {
			names = append(names, ref.Name)
		}
		slices.Sort(names)
		return names
	}
	held := func() []string {
		var names []string
		for n := range f.held {
			names = append(names, n.namespace+"/"+n.name)
		}
		slices.Sort(names)
		return names
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	must(f.Replace([]any{pod("a", "1"), pod("b", "1")}, "1"))
	if !f.synced.Load() {
		t.Error("the first list did not sync the cache")
	}
	if got := marked(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("the first list marked %v, want a and b", got)
	}
	must(f.Update(pod("a", "1")))
	if got := marked(); len(got) != 0 {
		t.Errorf("the same resourceVersion again marked %v", got)
	}
	must(f.Update(pod("a", "2")))
	must(f.Add(pod("c", "3")))
	if got := marked(); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("a change and an arrival marked %v, want a and c", got)
	}

	// A relist after a lost watch: b went and d came meanwhile, c changed.
	must(f.Replace([]any{pod("a", "2"), pod("c", "4"), pod("d", "4")}, "4"))
	if got := marked(); !slices.Equal(got, []string{"b", "c", "d"}) {
		t.Errorf("the relist marked %v, want b (gone), c (changed) and d (new)", got)
	}
	if got := held(); !slices.Equal(got, []string{"default/a", "default/c", "default/d"}) {
		t.Errorf("after the relist the cache holds %v", got)
	}

	must(f.Delete(pod("a", "5")))
	if got := marked(); !slices.Equal(got, []string{"a"}) {
		t.Errorf("a deletion marked %v", got)
	}
	if _, ok := s.get(cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "a"}); ok {
		t.Error("a deleted pod is still in the cache")
	}
	// The transform ran: the cache holds slim pods.
	if obj, ok := s.get(cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "d"}); !ok || obj.(*corev1.Pod).ResourceVersion != "4" {
		t.Errorf("pod d cached as %v", obj)
	}
}
