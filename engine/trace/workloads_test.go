package trace

import (
	"bytes"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func TestStatefulSetAndDaemonSetLines(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	partition, replicas := int32(2), int32(5)
	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: appsv1.StatefulSetSpec{Replicas: &replicas, UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
			Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}}},
		Status: appsv1.StatefulSetStatus{Replicas: 5, ReadyReplicas: 4, AvailableReplicas: 4, CurrentReplicas: 3, UpdatedReplicas: 1, CurrentRevision: "db-a", UpdateRevision: "db-b"},
	}
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "default"},
		Status:     appsv1.DaemonSetStatus{DesiredNumberScheduled: 6, CurrentNumberScheduled: 6, NumberReady: 5, NumberAvailable: 5, UpdatedNumberScheduled: 2, NumberUnavailable: 1, NumberMisscheduled: 1},
	}
	for _, c := range []struct {
		format Format
		want   string
	}{
		{JSONL, `{"t":1.5,"type":"statefulset","namespace":"default","name":"db","spec":5,"replicas":5,"ready":4,"available":4,"current":3,"updated":1,"partition":2,"currentRevision":"db-a","updateRevision":"db-b"}
{"t":1.5,"type":"daemonset","namespace":"default","name":"agent","desired":6,"current":6,"ready":5,"available":5,"updated":2,"unavailable":1,"misscheduled":1}
{"t":2.0,"type":"statefulset","namespace":"default","name":"db","deleted":true}
`},
		{Table, `TIME      ROW     NAME                                            DESIRED  CURRENT  READY  AVAILABLE  UP-TO-DATE  STATUS
1.500     object  statefulset/db                                  5        5        4      4          1           partition 2
1.500     object  daemonset/agent                                 6        6        5      5          2           1 misscheduled
`},
	} {
		var out bytes.Buffer
		w := New(&out, c.format, start, nil)
		at := start.Add(1500 * time.Millisecond)
		w.Observe(at, watch.Event{Type: watch.Added, Object: set})
		w.Observe(at, watch.Event{Type: watch.Added, Object: ds})
		// Unchanged: no line.
		w.Observe(at, watch.Event{Type: watch.Modified, Object: set.DeepCopy()})
		if c.format == JSONL {
			w.Observe(start.Add(2*time.Second), watch.Event{Type: watch.Deleted, Object: set})
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.format, out.String(), c.want)
		}
	}
}

// A typed nil in an event is not an object: whatever its kind, it writes
// no line (and is no panic).
func TestTypedNilObjectsWriteNothing(t *testing.T) {
	var out bytes.Buffer
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := New(&out, JSONL, start, nil)
	for _, ev := range []watch.Event{{Object: (*appsv1.ReplicaSet)(nil)}, {Object: (*corev1.ReplicationController)(nil)},
		{Object: (*appsv1.StatefulSet)(nil)}, {Object: (*appsv1.DaemonSet)(nil)}, {Object: (*appsv1.Deployment)(nil)},
		{Object: (*corev1.Pod)(nil)}, {Object: (*corev1.Node)(nil)}, {Object: (*corev1.Event)(nil)}} {
		for _, typ := range []watch.EventType{watch.Added, watch.Deleted} {
			ev.Type = typ
			w.Observe(start, ev)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 0 {
		t.Errorf("typed nils wrote:\n%s", out.String())
	}
}
