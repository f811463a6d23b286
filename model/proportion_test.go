package model_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// The hand-worked example in SEMANTICS.md §7: 13 -> 8 replicas, maxSurge 0.
func TestReplicaSetProportionWorkedExample(t *testing.T) {
	zero := ref(intOrInt(0))
	d := rollingDeployment("RollingUpdate", ref(int32(8)), zero, zero)
	mk := func(name string, n int32, minutes int) *appsv1.ReplicaSet {
		rs := revisioned(name, "", "x", minutes)
		rs.Spec.Replicas = ref(n)
		rs.Annotations = map[string]string{model.MaxReplicasAnnotation: "13"}
		return rs
	}
	rss := []*appsv1.ReplicaSet{mk("v3", 2, 2), mk("v1", 3, 0), mk("v2", 8, 1)}
	model.SortBySizeOlder(rss)
	if got := names(rss); got[0] != "v2" || got[1] != "v1" || got[2] != "v3" {
		t.Fatalf("SortBySizeOlder = %v, want [v2 v1 v3]", got)
	}
	toAdd, added := int32(-5), int32(0)
	var got []int32
	for _, rs := range rss {
		p := model.ReplicaSetProportion(rs, d, toAdd, added)
		got = append(got, p)
		added += p
	}
	if got[0] != -3 || got[1] != -1 || got[2] != -1 {
		t.Errorf("proportions = %v, want [-3 -1 -1]", got)
	}
}

func TestSortOrdersBreakTies(t *testing.T) {
	at := metav1.NewTime(epoch)
	mk := func(name string, n int32, ts metav1.Time) *appsv1.ReplicaSet {
		rs := replicaSet(name, n)
		rs.CreationTimestamp = ts
		return rs
	}
	later := metav1.NewTime(epoch.Add(1))
	rss := []*appsv1.ReplicaSet{mk("b", 1, at), mk("a", 1, at), mk("c", 1, later), mk("big", 5, at)}
	model.SortBySizeNewer(rss)
	if got := names(rss); got[0] != "big" || got[1] != "c" || got[2] != "b" || got[3] != "a" {
		t.Errorf("SortBySizeNewer = %v, want [big c b a]", got)
	}
	model.SortBySizeOlder(rss)
	if got := names(rss); got[0] != "big" || got[1] != "a" || got[2] != "b" || got[3] != "c" {
		t.Errorf("SortBySizeOlder = %v, want [big a b c]", got)
	}
	model.SortByCreationTimestampNewestFirst(rss)
	if got := names(rss); got[0] != "c" || got[1] != "big" {
		t.Errorf("SortByCreationTimestampNewestFirst = %v, want c then big", got)
	}
}

func TestFindActiveOrLatest(t *testing.T) {
	newRS := revisioned("new", "", "x", 5)
	o1, o2 := revisioned("o1", "", "x", 1), revisioned("o2", "", "x", 2)
	if got := model.FindActiveOrLatest(nil, []*appsv1.ReplicaSet{o1, o2}); got != o2 {
		t.Errorf("no active, no new: got %v, want the newest old", got.Name)
	}
	if got := model.FindActiveOrLatest(newRS, []*appsv1.ReplicaSet{o1, o2}); got != newRS {
		t.Errorf("no active: got %v, want the new one", got.Name)
	}
	o1.Spec.Replicas = ref(int32(2))
	if got := model.FindActiveOrLatest(newRS, []*appsv1.ReplicaSet{o1, o2}); got != o1 {
		t.Errorf("one active: got %v, want o1", got)
	}
	newRS.Spec.Replicas = ref(int32(1))
	if got := model.FindActiveOrLatest(newRS, []*appsv1.ReplicaSet{o1, o2}); got != nil {
		t.Errorf("two active: got %v, want nil", got.Name)
	}
	if model.FindActiveOrLatest(nil, nil) != nil {
		t.Error("nothing at all: want nil")
	}
}
