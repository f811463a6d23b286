package trace

import (
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// StatefulSet and DaemonSet lines: what `kubectl get sts` and `kubectl get
// ds` show, plus what a rolling update turns on (the partition and the two
// revisions of a StatefulSet, a DaemonSet's updated and misscheduled pods).

const (
	kindStatefulSet = "statefulset"
	kindDaemonSet   = "daemonset"
)

type statefulSetLine struct {
	spec, replicas, ready, available, current, updated, partition int32
	currentRevision, updateRevision                               string
}

func projectStatefulSet(s *appsv1.StatefulSet) statefulSetLine {
	return statefulSetLine{
		spec:            model.StatefulSetReplicas(s),
		replicas:        s.Status.Replicas,
		ready:           s.Status.ReadyReplicas,
		available:       s.Status.AvailableReplicas,
		current:         s.Status.CurrentReplicas,
		updated:         s.Status.UpdatedReplicas,
		partition:       model.StatefulSetPartition(s),
		currentRevision: s.Status.CurrentRevision,
		updateRevision:  s.Status.UpdateRevision,
	}
}

type daemonSetLine struct {
	desired, current, ready, available, updated, unavailable, misscheduled int32
}

func projectDaemonSet(ds *appsv1.DaemonSet) daemonSetLine {
	s := ds.Status
	return daemonSetLine{
		desired:      s.DesiredNumberScheduled,
		current:      s.CurrentNumberScheduled,
		ready:        s.NumberReady,
		available:    s.NumberAvailable,
		updated:      s.UpdatedNumberScheduled,
		unavailable:  s.NumberUnavailable,
		misscheduled: s.NumberMisscheduled,
	}
}

// workloadLine is a StatefulSet's or a DaemonSet's line as both formats
// write it.
type workloadLine interface {
	// appendRow appends the table's count columns and what the rolling
	// update turns on, if anything.
	appendRow(b []byte) []byte
	// appendFields appends the JSON fields after the namespace and name.
	appendFields(b []byte) []byte
}

func writeWorkload[L workloadLine](w *Writer, t time.Duration, kind string, key objectKey, l L) {
	if w.table {
		w.tableFinish(l.appendRow(w.tableObject(t, rowWorkload, kind, key)))
		return
	}
	b := w.jsonStart(t, kind)
	b = appendStringField(b, "namespace", key.namespace)
	b = appendStringField(b, "name", key.name)
	w.jsonFinish(l.appendFields(b))
}

// appendCountColumns appends a workload's DESIRED, CURRENT, READY,
// AVAILABLE and UP-TO-DATE columns.
func appendCountColumns(b []byte, desired, current, ready, available, upToDate int32) []byte {
	for i, v := range [...]int32{desired, current, ready, available, upToDate} {
		b = appendColumn(b, int64(v), countWidths[i])
	}
	return b
}

// count is one JSON count field of a workload's line.
type count struct {
	name string
	v    int32
}

func appendCounts(b []byte, counts ...count) []byte {
	for _, c := range counts {
		b = appendIntField(b, c.name, int64(c.v))
	}
	return b
}

func (w *Writer) writeStatefulSet(t time.Duration, key objectKey, l statefulSetLine) {
	writeWorkload(w, t, kindStatefulSet, key, l)
}

func (l statefulSetLine) appendRow(b []byte) []byte {
	b = appendCountColumns(b, l.spec, l.replicas, l.ready, l.available, l.updated)
	if l.partition > 0 {
		b = append(b, "partition "...)
		b = strconv.AppendInt(b, int64(l.partition), 10)
	}
	return b
}

func (l statefulSetLine) appendFields(b []byte) []byte {
	b = appendCounts(b, count{"spec", l.spec}, count{"replicas", l.replicas}, count{"ready", l.ready}, count{"available", l.available},
		count{"current", l.current}, count{"updated", l.updated}, count{"partition", l.partition})
	b = appendStringField(b, "currentRevision", l.currentRevision)
	return appendStringField(b, "updateRevision", l.updateRevision)
}

func (w *Writer) writeDaemonSet(t time.Duration, key objectKey, l daemonSetLine) {
	writeWorkload(w, t, kindDaemonSet, key, l)
}

func (l daemonSetLine) appendRow(b []byte) []byte {
	b = appendCountColumns(b, l.desired, l.current, l.ready, l.available, l.updated)
	if l.misscheduled > 0 {
		b = strconv.AppendInt(b, int64(l.misscheduled), 10)
		b = append(b, " misscheduled"...)
	}
	return b
}

func (l daemonSetLine) appendFields(b []byte) []byte {
	return appendCounts(b, count{"desired", l.desired}, count{"current", l.current}, count{"ready", l.ready}, count{"available", l.available},
		count{"updated", l.updated}, count{"unavailable", l.unavailable}, count{"misscheduled", l.misscheduled})
}
