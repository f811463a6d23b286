package cluster_test

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// Pod rows are kept between refreshes; after every batch — pods added,
// changed, moved between ReplicaSets, deleted — the picture read must still
// be the one built from scratch, so a kept row is never a stale one.
func TestKeptPodRowsFollowEveryBatch(t *testing.T) {
	m := newMidRollout()
	w := &world{c: cluster.NewCluster(), objects: map[cluster.ObjectRef]runtime.Object{}}
	check := func(step string) {
		t.Helper()
		var all []runtime.Object
		for _, obj := range w.objects {
			all = append(all, obj)
		}
		scratch := cluster.NewCluster()
		scratch.Apply(cluster.Batch{At: at(13), Objects: all, Watch: synced})
		if got, want := snap(w.c), snap(scratch); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s the kept picture differs from one built from scratch:\n got %+v\nwant %+v", step, got, want)
		}
	}
	w.apply(t, 0, []runtime.Object{m.d, m.oldRS, m.pods[0], m.pods[1], m.pods[2], m.nodes[0], m.nodes[1]})
	check("the first batch")
	w.apply(t, 10, []runtime.Object{m.newRS, m.pods[3], m.pods[4], m.nodes[2]})
	check("the new ReplicaSet's pods")
	crashing := m.pods[3].DeepCopy()
	crashing.ResourceVersion = "crash"
	crashing.Status.ContainerStatuses[0].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
	w.apply(t, 11, []runtime.Object{crashing})
	check("a pod's status change")
	adopted := m.pods[2].DeepCopy()
	adopted.ResourceVersion = "adopted"
	adopted.OwnerReferences = m.pods[3].OwnerReferences
	w.apply(t, 11, []runtime.Object{adopted})
	check("a pod moving to another ReplicaSet")
	w.apply(t, 12, nil, m.pods[0])
	check("a pod's deletion")
}
