package cluster_test

import (
	"fmt"
	"reflect"
	"slices"
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

	// Many pods, and batches that change a few of them at once: before
	// the first row, between rows, after the last; new, changed and gone.
	// (Past a quarter of an owner's pods changed, the rows are gathered
	// again instead of patched: these stay under it.)
	named := func(name, version string) *corev1.Pod {
		p := m.pods[3].DeepCopy()
		p.Name, p.ResourceVersion = name, version
		return p
	}
	var many []runtime.Object
	for i := 10; i < 90; i += 2 {
		many = append(many, named(fmt.Sprintf("web-new-%02d", i), "1"))
	}
	w.apply(t, 12, many)
	check("forty more pods")
	snap(w.c) // rows kept from here on
	for step, batch := range [][]string{
		{"web-new-00", "web-new-11", "web-new-95"}, // new: first, between, last
		{"web-new-10", "web-new-50", "web-new-88"}, // changed: the first, one between, the last
		{"web-new-01", "web-new-02", "web-new-03"}, // new, side by side
	} {
		var put []runtime.Object
		for _, name := range batch {
			put = append(put, named(name, fmt.Sprint("v", step)))
		}
		w.apply(t, 12, put)
		check(fmt.Sprintf("batch %d of pods %v", step, batch))
	}
	w.apply(t, 12, nil, named("web-new-00", ""), named("web-new-52", ""), named("web-new-95", ""))
	check("the first, one between and the last pod gone")
}

// A reader may hold the rows of one read through the next one: the screen
// draws a view while its next refresh reads, and the plain output compares
// a line with the last one printed. A patch writes into the rows returned
// before that, never into what the latest read returned.
func TestAReadLeavesTheRowsOfTheReadBeforeAlone(t *testing.T) {
	m := newMidRollout()
	w := &world{c: cluster.NewCluster(), objects: map[cluster.ObjectRef]runtime.Object{}}
	w.apply(t, 0, []runtime.Object{m.d, m.oldRS, m.newRS, m.pods[0], m.pods[1], m.pods[2], m.pods[3], m.pods[4], m.nodes[0], m.nodes[1], m.nodes[2]})
	var many []runtime.Object
	for i := range 40 {
		p := m.pods[3].DeepCopy()
		p.Name, p.ResourceVersion = fmt.Sprintf("web-new-%02d", i), "1"
		many = append(many, p)
	}
	w.apply(t, 1, many)
	read := func() []cluster.PodRow {
		v, _ := w.c.Rollout(m.d.Namespace, m.d.Name, at(30))
		for _, rs := range v.ReplicaSets {
			if rs.Name == m.newRS.Name {
				return rs.Pods
			}
		}
		t.Fatal("the new ReplicaSet is not in the view")
		return nil
	}
	held := read()
	for step := range 4 {
		kept := slices.Clone(held)
		changed := many[step*3].(*corev1.Pod).DeepCopy()
		changed.ResourceVersion = fmt.Sprint("v", step)
		changed.Status.ContainerStatuses[0].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: fmt.Sprint("Step", step)}}
		w.apply(t, 2, []runtime.Object{changed})
		next := read()
		if !reflect.DeepEqual(held, kept) {
			t.Fatalf("step %d: the rows of the read before changed under their reader", step)
		}
		if reflect.DeepEqual(next, kept) {
			t.Fatalf("step %d: the read after a pod's change shows the rows before it", step)
		}
		held = next
	}
}
