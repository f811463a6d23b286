package cluster_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
	"rollscope/model/cluster"
)

func TestNodes(t *testing.T) {
	m := newMidRollout()
	// node-1 is cordoned and being drained, node-2 tainted; node-3 was
	// created last from spec v2, so v1 nodes are outdated. The masters'
	// group has two newest nodes on different specs: the greater one wins.
	m.nodes[0].Spec.Unschedulable = true
	m.nodes[0].Annotations[model.DrainStateAnnotation] = "evicting 2 pods"
	m.nodes[1].Spec.Taints = []corev1.Taint{
		{Key: "dedicated", Value: "web", Effect: corev1.TaintEffectNoSchedule},
		{Key: "node.kubernetes.io/unreachable", Effect: corev1.TaintEffectNoExecute},
	}
	m.nodes[1].Status.Conditions[0].Status = corev1.ConditionUnknown
	masters := []*corev1.Node{
		groupNode("master-a", "masters", "m1", at(0)), groupNode("master-b", "masters", "m2", at(0)),
	}
	bare := groupNode("bare", "", "", at(0))
	bare.Annotations = nil
	// Finished and deleting pods no longer count on their node.
	done := runningPod(m.oldRS, "done", "node-1")
	done.Status.Phase = corev1.PodSucceeded
	leaving := runningPod(m.oldRS, "leaving", "node-1")
	leaving.DeletionTimestamp = &metav1.Time{Time: at(11)}
	objs := append(m.objects(), runtime.Object(masters[0]), masters[1], bare, done, leaving)

	got := loaded(objs...).Nodes()
	want := []cluster.NodeRow{
		{Name: "bare", Group: "", Ready: true, Schedulable: true, UpToDate: true},
		{Name: "master-a", Group: "masters", Ready: true, Schedulable: true, UpToDate: false},
		{Name: "master-b", Group: "masters", Ready: true, Schedulable: true, UpToDate: true},
		{Name: "node-1", Group: "nodes", Ready: true, Schedulable: false, Pods: 2, UpToDate: false, Drain: "evicting 2 pods"},
		{Name: "node-2", Group: "nodes", Ready: false, Schedulable: true, Pods: 2, UpToDate: false,
			Taints: []string{"dedicated=web:NoSchedule", "node.kubernetes.io/unreachable:NoExecute"}},
		{Name: "node-3", Group: "nodes", Ready: true, Schedulable: true, Pods: 1, UpToDate: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Nodes:\n got %+v\nwant %+v", got, want)
	}
}

// kops' needs-update mark makes a node outdated even when no node of its
// group runs a newer spec yet: the start of every node roll.
func TestNeedsUpdateMarksANodeOutdated(t *testing.T) {
	c := cluster.NewCluster()
	node := func(name string, marked bool) *corev1.Node {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: "1",
			Labels:      map[string]string{model.NodeGroupLabel: "nodes"},
			Annotations: map[string]string{model.NodeSpecAnnotation: "v1"}}}
		if marked {
			n.Annotations[model.NeedsUpdateAnnotation] = ""
		}
		return n
	}
	c.Apply(cluster.Batch{Objects: []runtime.Object{node("a", true), node("b", false)}})
	rows := c.Nodes()
	if len(rows) != 2 || rows[0].UpToDate || !rows[1].UpToDate {
		t.Fatalf("rows %+v: want a outdated (marked), b up to date", rows)
	}
}

// A reader may hold the node rows of one read through the next: the screen
// draws a view while its next refresh reads. As pods land on nodes and
// leave them, each read counts them as they are then, and never changes
// the rows the latest read before it returned; a node's change shows with
// its pods counted.
func TestANodeReadStaysAsReadThroughTheNext(t *testing.T) {
	m := newMidRollout()
	w := &world{c: cluster.NewCluster(), objects: map[cluster.ObjectRef]runtime.Object{}}
	w.apply(t, 0, m.objects())
	pods := func(rows []cluster.NodeRow) map[string]int {
		out := map[string]int{}
		for _, r := range rows {
			out[r.Name] = r.Pods
		}
		return out
	}
	held := w.c.Nodes()
	before := pods(held)
	if again := pods(w.c.Nodes()); !reflect.DeepEqual(again, before) {
		t.Fatalf("a read with nothing changed counts %v, the one before %v", again, before)
	}
	for i, node := range []string{"node-3", "node-1", "node-3", "node-2"} {
		p := runningPod(m.newRS, fmt.Sprintf("extra-%d", i), node)
		p.ResourceVersion = "1"
		w.apply(t, 1+i, []runtime.Object{p})
		read := w.c.Nodes()
		if got := pods(held); !reflect.DeepEqual(got, before) {
			t.Fatalf("pod %d on %s: the rows held from the read before now count %v, they counted %v", i, node, got, before)
		}
		want := maps.Clone(before)
		want[node]++
		if got := pods(read); !reflect.DeepEqual(got, want) {
			t.Fatalf("pod %d on %s: counted %v, want %v", i, node, got, want)
		}
		held, before = read, want
	}
	leaving := w.objects[cluster.ObjectRef{Kind: "Pod", Namespace: m.d.Namespace, Name: runningPod(m.newRS, "extra-0", "node-3").Name}]
	w.apply(t, 6, nil, leaving)
	before["node-3"]--
	if got := pods(w.c.Nodes()); !reflect.DeepEqual(got, before) {
		t.Errorf("a pod gone: counted %v, want %v", got, before)
	}
	node := m.nodes[0].DeepCopy()
	node.Spec.Unschedulable, node.ResourceVersion = true, "2"
	w.apply(t, 7, []runtime.Object{node})
	read := w.c.Nodes()
	if got := pods(read); !reflect.DeepEqual(got, before) {
		t.Errorf("a node cordoned: counted %v, want %v", got, before)
	}
	if i := slices.IndexFunc(read, func(r cluster.NodeRow) bool { return r.Name == node.Name }); i < 0 || read[i].Schedulable {
		t.Errorf("the cordoned %s reads schedulable, or is gone: %+v", node.Name, read)
	}
}
