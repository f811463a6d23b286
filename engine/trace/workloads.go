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

func (w *Writer) writeStatefulSet(t time.Duration, key objectKey, l statefulSetLine) {
	if w.table {
		b := w.tableObject(t, rowWorkload, kindStatefulSet, key)
		b = appendColumn(b, int64(l.spec), widthDesired)
		b = appendColumn(b, int64(l.replicas), widthCurrent)
		b = appendColumn(b, int64(l.ready), widthReady)
		b = appendColumn(b, int64(l.available), widthAvailable)
		b = appendColumn(b, int64(l.updated), widthUpToDate)
		if l.partition > 0 {
			b = append(b, "partition "...)
			b = strconv.AppendInt(b, int64(l.partition), 10)
		}
		w.tableFinish(b)
		return
	}
	b := w.jsonStart(t, kindStatefulSet)
	b = appendStringField(b, "namespace", key.namespace)
	b = appendStringField(b, "name", key.name)
	b = appendIntField(b, "spec", int64(l.spec))
	b = appendIntField(b, "replicas", int64(l.replicas))
	b = appendIntField(b, "ready", int64(l.ready))
	b = appendIntField(b, "available", int64(l.available))
	b = appendIntField(b, "current", int64(l.current))
	b = appendIntField(b, "updated", int64(l.updated))
	b = appendIntField(b, "partition", int64(l.partition))
	b = appendStringField(b, "currentRevision", l.currentRevision)
	b = appendStringField(b, "updateRevision", l.updateRevision)
	w.jsonFinish(b)
}

func (w *Writer) writeDaemonSet(t time.Duration, key objectKey, l daemonSetLine) {
	if w.table {
		b := w.tableObject(t, rowWorkload, kindDaemonSet, key)
		b = appendColumn(b, int64(l.desired), widthDesired)
		b = appendColumn(b, int64(l.current), widthCurrent)
		b = appendColumn(b, int64(l.ready), widthReady)
		b = appendColumn(b, int64(l.available), widthAvailable)
		b = appendColumn(b, int64(l.updated), widthUpToDate)
		if l.misscheduled > 0 {
			b = strconv.AppendInt(b, int64(l.misscheduled), 10)
			b = append(b, " misscheduled"...)
		}
		w.tableFinish(b)
		return
	}
	b := w.jsonStart(t, kindDaemonSet)
	b = appendStringField(b, "namespace", key.namespace)
	b = appendStringField(b, "name", key.name)
	b = appendIntField(b, "desired", int64(l.desired))
	b = appendIntField(b, "current", int64(l.current))
	b = appendIntField(b, "ready", int64(l.ready))
	b = appendIntField(b, "available", int64(l.available))
	b = appendIntField(b, "updated", int64(l.updated))
	b = appendIntField(b, "unavailable", int64(l.unavailable))
	b = appendIntField(b, "misscheduled", int64(l.misscheduled))
	w.jsonFinish(b)
}
