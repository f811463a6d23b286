package trace_test

import (
	"bytes"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/trace"
)

// On a virtual clock a node's line says what the node looked like at the end
// of each instant in which it changed: the pods bound, started and deleted in
// between are not states anyone could have seen.
func TestNodeLinesPerInstant(t *testing.T) {
	var out bytes.Buffer
	w := trace.New(&out, trace.JSONL, start, groups)
	w.NodeLinesPerInstant()
	steps := []step{
		added(0, node("nodes-0", "v2", true, false)),
		added(0, node("nodes-1", "v2", true, false)),
		added(1, pod("a", "nodes-0", corev1.PodRunning)),
		added(1, pod("b", "nodes-0", corev1.PodRunning)),
		added(1, replicaSet("rs", "1", 2, 2, 0, 0)),
		added(1, pod("c", "nodes-0", corev1.PodRunning)),
		// Two in, two out in one instant: nothing changed on nodes-1.
		added(2, pod("d", "nodes-1", corev1.PodRunning)),
		deleted(2, pod("d", "nodes-1", corev1.PodRunning)),
		deleted(3, pod("a", "nodes-0", corev1.PodRunning)),
		deleted(3, node("nodes-1", "v2", true, false)),
	}
	for _, s := range steps {
		w.Observe(at(s.t), watch.Event{Type: s.ev, Object: s.obj})
	}
	w.End(at(4), "quiescent")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"t":0.0,"type":"node","name":"nodes-0","group":"nodes","ready":true,"unschedulable":false,"pods":0,"upToDate":true}`,
		`{"t":0.0,"type":"node","name":"nodes-1","group":"nodes","ready":true,"unschedulable":false,"pods":0,"upToDate":true}`,
		`{"t":1.0,"type":"replicaset","namespace":"default","name":"rs","owner":"deployment/frontend","revision":1,"spec":2,"replicas":2,"ready":0,"available":0}`,
		`{"t":1.0,"type":"node","name":"nodes-0","group":"nodes","ready":true,"unschedulable":false,"pods":3,"upToDate":true}`,
		`{"t":3.0,"type":"node","name":"nodes-1","deleted":true}`,
		`{"t":3.0,"type":"node","name":"nodes-0","group":"nodes","ready":true,"unschedulable":false,"pods":2,"upToDate":true}`,
		`{"t":4.0,"type":"end","reason":"quiescent"}`,
	}
	if got := lines(out.String()); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}
