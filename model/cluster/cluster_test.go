package cluster_test

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// world follows what the cluster holds while batches are applied, so that a
// Cluster built from scratch from the final state can be compared with one
// that followed every batch.
type world struct {
	c       *cluster.Cluster
	objects map[cluster.ObjectRef]runtime.Object
}

func refOf(obj runtime.Object) cluster.ObjectRef {
	m := obj.(metav1.Object)
	kind := reflect.TypeOf(obj).Elem().Name()
	return cluster.ObjectRef{Kind: kind, Namespace: m.GetNamespace(), Name: m.GetName()}
}

func (w *world) apply(t *testing.T, minute int, put []runtime.Object, gone ...runtime.Object) {
	t.Helper()
	b := cluster.Batch{At: at(minute), Objects: put, Watch: synced}
	for _, obj := range gone {
		b.Deleted = append(b.Deleted, refOf(obj))
		delete(w.objects, refOf(obj))
	}
	for _, obj := range put {
		w.objects[refOf(obj)] = obj
	}
	w.c.Apply(b)
}

// snapshot is everything a screen can ask a Cluster for, apart from the
// timeline, which records the way there rather than the state.
type snapshot struct {
	Deployments []cluster.DeploymentSummary
	Rollouts    []cluster.RolloutView
	Nodes       []cluster.NodeRow
	Diffs       [][]cluster.DiffLine
}

func snap(c *cluster.Cluster) snapshot {
	s := snapshot{Deployments: c.Deployments(), Nodes: c.Nodes()}
	for _, d := range s.Deployments {
		v, _ := c.Rollout(d.Namespace, d.Name, at(30))
		s.Rollouts = append(s.Rollouts, v)
		for _, h := range v.History {
			diff, err := c.RevisionDiff(d.Namespace, d.Name, h.Revision)
			if err != nil {
				diff = []cluster.DiffLine{{Text: err.Error()}}
			}
			s.Diffs = append(s.Diffs, diff)
		}
	}
	return s
}

func TestIncrementalApplyEqualsFromScratch(t *testing.T) {
	m := newMidRollout()
	w := &world{c: cluster.NewCluster(), objects: map[cluster.ObjectRef]runtime.Object{}}

	// Start before the rollout: revision 1 only.
	w.apply(t, 0, []runtime.Object{m.d, m.oldRS, m.pods[0], m.pods[1], m.pods[2], m.nodes[0], m.nodes[1]})
	// The rollout starts: the new ReplicaSet, its pods, a new node.
	w.apply(t, 10, []runtime.Object{m.newRS, m.pods[3], m.pods[4], m.nodes[2]})

	// A pod crash-loops and is rescheduled elsewhere; one is adopted away
	// from the old ReplicaSet by the new one.
	crashing := m.pods[3].DeepCopy()
	crashing.Spec.NodeName = "node-1"
	crashing.Status.ContainerStatuses[0].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
	adopted := m.pods[2].DeepCopy()
	adopted.OwnerReferences = m.pods[3].OwnerReferences
	cordoned := m.nodes[0].DeepCopy()
	cordoned.Spec.Unschedulable = true
	w.apply(t, 11, []runtime.Object{crashing, adopted, cordoned})

	// The old ReplicaSet shrinks, one of its pods goes, a node goes, and a
	// ReplicaSet that came and went leaves nothing behind.
	smaller := m.oldRS.DeepCopy()
	*smaller.Spec.Replicas = 1
	stray := ownedReplicaSet(m.d, "v9", "9", "web:v9", 1, 0, at(12))
	strayPod := runningPod(stray, "a", "node-2")
	w.apply(t, 12, []runtime.Object{smaller, stray, strayPod}, m.pods[0], m.nodes[1])
	w.apply(t, 13, nil, stray, strayPod)

	var final []runtime.Object
	for _, obj := range w.objects {
		final = append(final, obj)
	}
	scratch := cluster.NewCluster()
	scratch.Apply(cluster.Batch{At: at(13), Objects: final, Watch: synced})

	got, want := snap(w.c), snap(scratch)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("incremental picture differs from one built from scratch:\n got %+v\nwant %+v", got, want)
	}
	// And the incremental picture says what happened.
	v, _ := w.c.Rollout(shop, "frontend", at(13))
	if len(v.ReplicaSets) != 2 || len(v.ReplicaSets[0].Pods) != 3 || len(v.ReplicaSets[1].Pods) != 1 {
		t.Fatalf("ReplicaSets = %+v, want the new one with 3 pods (one adopted) and the old one with 1", v.ReplicaSets)
	}
	if p := v.ReplicaSets[0].Pods[0]; p.Name != "frontend-v1-c" || p.State != cluster.PodReady {
		t.Errorf("first pod of the new ReplicaSet = %+v, want the adopted frontend-v1-c", p)
	}
	if p := v.ReplicaSets[0].Pods[1]; p.State != cluster.PodCrashLoop || p.Node != "node-1" {
		t.Errorf("crashing pod = %+v, want crash-looping on node-1", p)
	}
	nodes := w.c.Nodes()
	if len(nodes) != 2 || nodes[0].Name != "node-1" || nodes[0].Pods != 2 || nodes[0].Schedulable {
		t.Errorf("Nodes = %+v, want cordoned node-1 with 2 pods and node-3", nodes)
	}
}

func TestDeletesForgetObjects(t *testing.T) {
	m := newMidRollout()
	c := loaded(m.objects()...)
	var gone []cluster.ObjectRef
	for _, obj := range m.objects() {
		gone = append(gone, refOf(obj))
	}
	if !c.Apply(cluster.Batch{At: at(20), Deleted: gone, Watch: synced}) {
		t.Fatal("deleting everything reported no change")
	}
	if d, n := c.Deployments(), c.Nodes(); len(d) != 0 || len(n) != 0 {
		t.Errorf("after deleting everything: %d deployments, %d nodes; want none", len(d), len(n))
	}
	if _, ok := c.Rollout(shop, "frontend", at(20)); ok {
		t.Error("Rollout still finds the deleted deployment")
	}
	// The same objects come back: nothing stale is left to double them.
	c.Apply(cluster.Batch{At: at(21), Objects: m.objects(), Watch: synced})
	if got, want := snap(c), snap(loaded(m.objects()...)); !reflect.DeepEqual(got, want) {
		t.Errorf("recreated picture differs from a fresh one:\n got %+v\nwant %+v", got, want)
	}
}
