package kind

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// What a workload's status says to the trace and to a run's end: the
// kind's trace line (the counts `kubectl get` shows, and the fields a
// rolling update turns on), and whether its rollout has settled.

// TraceLine is what a workload's trace line says after its kind, namespace
// and name, in the table and the JSON formats alike. It holds scalars only,
// so that comparing two tells whether a line is due.
type TraceLine struct {
	// Counts fill the table's DESIRED, CURRENT, READY, AVAILABLE and
	// UP-TO-DATE columns; the columns from Counted on show "-" (the kind
	// does not count them).
	Counts  [5]int32
	Counted int
	// Note is the table's STATUS: what the rolling update turns on, or "".
	Note string
	// Fields are the JSON line's fields, in order; the first without a
	// name ends them.
	Fields [maxTraceFields]TraceField
}

// TraceField is one field of a workload's JSON trace line: a number, or a
// string when IsText.
type TraceField struct {
	Name   string
	Number int64
	Text   string
	IsText bool
}

// maxTraceFields is the most fields a kind's trace line has.
const maxTraceFields = 9

func countField(name string, v int32) TraceField { return TraceField{Name: name, Number: int64(v)} }
func textField(name, s string) TraceField        { return TraceField{Name: name, Text: s, IsText: true} }

// traceFields are fs as a TraceLine holds them.
func traceFields(fs ...TraceField) (out [maxTraceFields]TraceField) {
	if len(fs) > maxTraceFields {
		panic("kind: a trace line has more than " + strconv.Itoa(maxTraceFields) + " fields")
	}
	copy(out[:], fs)
	return out
}

// TraceLine is a Deployment's counts as `kubectl get deployments` shows
// them. The trace writes a Deployment a line of its own, which adds its
// conditions, its pause and its guided canary.
func (w deployment) TraceLine() TraceLine {
	spec, st := model.DesiredReplicas(w.Deployment), w.Status
	return TraceLine{
		Counts: [5]int32{spec, st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.UpdatedReplicas}, Counted: 5,
		Fields: traceFields(countField("spec", spec), countField("replicas", st.Replicas), countField("updated", st.UpdatedReplicas),
			countField("ready", st.ReadyReplicas), countField("available", st.AvailableReplicas), countField("unavailable", st.UnavailableReplicas)),
	}
}

// Settled is the part of a Deployment's settling its object tells: the
// controller has seen the latest spec, and the rollout is complete or has
// failed its progress deadline. A paused one, or one under a guided canary,
// settles by its ReplicaSets, which a run's end weighs as well.
func (w deployment) Settled() bool {
	d := w.Deployment
	if d.Status.ObservedGeneration < d.Generation {
		return false
	}
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c != nil && c.Reason == "ProgressDeadlineExceeded" {
		return true
	}
	return model.DeploymentComplete(d, &d.Status)
}

// TraceLine is a ReplicationController's line as a ReplicaSet's is
// written, with no owner: it is a top-level workload. It counts no
// up-to-date pods.
func (w replicationController) TraceLine() TraceLine {
	spec, st := model.RCReplicas(w.ReplicationController), w.Status
	revision, err := strconv.ParseInt(w.Annotations[model.RevisionAnnotation], 10, 64)
	if err != nil {
		revision = 0
	}
	return TraceLine{
		Counts: [5]int32{spec, st.Replicas, st.ReadyReplicas, st.AvailableReplicas}, Counted: 4,
		Fields: traceFields(textField("owner", ""), TraceField{Name: "revision", Number: revision},
			countField("spec", spec), countField("replicas", st.Replicas), countField("ready", st.ReadyReplicas), countField("available", st.AvailableReplicas)),
	}
}

// Settled: the controller has seen the latest spec and runs as many pods as
// it asks for, and it takes part in no rolling update (it is not done until
// the update is).
func (w replicationController) Settled() bool {
	rc := w.ReplicationController
	return rc.Status.ObservedGeneration >= rc.Generation && rc.Status.Replicas == model.RCReplicas(rc) && !model.RCUpdating(rc)
}

// TraceLine is what `kubectl get statefulsets` shows, and the partition
// and the two revisions a rolling update turns on.
func (w statefulSet) TraceLine() TraceLine {
	spec, partition, st := model.StatefulSetReplicas(w.StatefulSet), model.StatefulSetPartition(w.StatefulSet), w.Status
	l := TraceLine{
		Counts: [5]int32{spec, st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.UpdatedReplicas}, Counted: 5,
		Fields: traceFields(countField("spec", spec), countField("replicas", st.Replicas), countField("ready", st.ReadyReplicas),
			countField("available", st.AvailableReplicas), countField("current", st.CurrentReplicas), countField("updated", st.UpdatedReplicas),
			countField("partition", partition), textField("currentRevision", st.CurrentRevision), textField("updateRevision", st.UpdateRevision)),
	}
	if partition > 0 {
		l.Note = "partition " + strconv.Itoa(int(partition))
	}
	return l
}

// Settled is `kubectl rollout status` done with every pod available: a
// partitioned StatefulSet is done once the ordinals from the partition up
// run the update revision.
func (w statefulSet) Settled() bool {
	s := w.StatefulSet
	want := model.StatefulSetReplicas(s)
	st := s.Status
	if st.ObservedGeneration < s.Generation || st.Replicas != want || st.ReadyReplicas != want || st.AvailableReplicas != want {
		return false
	}
	if s.Spec.UpdateStrategy.Type != appsv1.RollingUpdateStatefulSetStrategyType {
		return true
	}
	return st.UpdatedReplicas >= want-min(model.StatefulSetPartition(s), want)
}

// TraceLine is what `kubectl get daemonsets` shows, and the unavailable and
// misscheduled pods a rolling update leaves.
func (w daemonSet) TraceLine() TraceLine {
	st := w.Status
	l := TraceLine{
		Counts: [5]int32{st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.NumberAvailable, st.UpdatedNumberScheduled}, Counted: 5,
		Fields: traceFields(countField("desired", st.DesiredNumberScheduled), countField("current", st.CurrentNumberScheduled),
			countField("ready", st.NumberReady), countField("available", st.NumberAvailable), countField("updated", st.UpdatedNumberScheduled),
			countField("unavailable", st.NumberUnavailable), countField("misscheduled", st.NumberMisscheduled)),
	}
	if st.NumberMisscheduled > 0 {
		l.Note = strconv.Itoa(int(st.NumberMisscheduled)) + " misscheduled"
	}
	return l
}

// Settled is `kubectl rollout status` done with every daemon pod available
// and none left on a node it should not run on.
func (w daemonSet) Settled() bool {
	ds := w.DaemonSet
	st := ds.Status
	if st.ObservedGeneration < ds.Generation || st.NumberMisscheduled > 0 ||
		st.CurrentNumberScheduled != st.DesiredNumberScheduled || st.NumberAvailable != st.DesiredNumberScheduled {
		return false
	}
	return ds.Spec.UpdateStrategy.Type != appsv1.RollingUpdateDaemonSetStrategyType || st.UpdatedNumberScheduled == st.DesiredNumberScheduled
}

// Desired is how many pods the workload wants: the DESIRED column.
func (l TraceLine) Desired() int32 { return l.Counts[0] }

func (w deployment) MinReadySeconds() int32            { return w.Spec.MinReadySeconds }
func (w replicationController) MinReadySeconds() int32 { return w.Spec.MinReadySeconds }
func (w statefulSet) MinReadySeconds() int32           { return w.Spec.MinReadySeconds }
func (w daemonSet) MinReadySeconds() int32             { return w.Spec.MinReadySeconds }

func (deployment) OnDelete() bool { return false }

// OnDelete: a ReplicationController has no update strategy; a new template
// reaches only the pods it makes in place of deleted ones.
func (replicationController) OnDelete() bool { return true }

func (w statefulSet) OnDelete() bool {
	return w.Spec.UpdateStrategy.Type == appsv1.OnDeleteStatefulSetStrategyType
}

func (w daemonSet) OnDelete() bool {
	return w.Spec.UpdateStrategy.Type == appsv1.OnDeleteDaemonSetStrategyType
}
