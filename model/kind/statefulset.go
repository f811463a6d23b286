package kind

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model"
	"rollscope/model/manifest"
)

// A StatefulSet as the registry reads it: ordinals, a partition, and
// ControllerRevisions for history.
type statefulSet struct{ *appsv1.StatefulSet }

// Check rejects what apps/v1 validation rejects of a StatefulSet.
func (w statefulSet) Check() *manifest.Problem {
	o := w.StatefulSet
	what := fmt.Sprintf("StatefulSet %q", o.Name)
	if p := manifest.First(
		manifest.Meta(&o.ObjectMeta, "StatefulSet", validation.IsDNS1123Subdomain),
		manifest.Replicas(o.Spec.Replicas, what),
		manifest.Selector(o.Spec.Selector, o.Spec.Template.Labels, what),
		manifest.NonNegative(o.Spec.MinReadySeconds, "spec.minReadySeconds", what),
		manifest.OptionalNonNegative(o.Spec.RevisionHistoryLimit, "spec.revisionHistoryLimit", what),
		manifest.PodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
	); p != nil {
		return p
	}
	switch o.Spec.PodManagementPolicy {
	case "", appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	default:
		return manifest.Problemf("spec.podManagementPolicy", "%s has podManagementPolicy %q (use OrderedReady or Parallel)", what, o.Spec.PodManagementPolicy)
	}
	s := o.Spec.UpdateStrategy
	switch s.Type {
	case "", appsv1.RollingUpdateStatefulSetStrategyType:
	case appsv1.OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return manifest.Problemf("spec.updateStrategy.rollingUpdate", "%s sets rollingUpdate with updateStrategy type OnDelete (remove rollingUpdate or use type RollingUpdate)", what)
		}
		return nil
	default:
		return manifest.Problemf("spec.updateStrategy.type", "%s has updateStrategy type %q (use RollingUpdate or OnDelete)", what, s.Type)
	}
	if s.RollingUpdate == nil {
		return nil
	}
	if p := manifest.OptionalNonNegative(s.RollingUpdate.Partition, "spec.updateStrategy.rollingUpdate.partition", what); p != nil {
		return p
	}
	const path = "spec.updateStrategy.rollingUpdate.maxUnavailable"
	if p := manifest.Budget(s.RollingUpdate.MaxUnavailable, path, what, true); p != nil {
		return p
	}
	if s.RollingUpdate.MaxUnavailable != nil && manifest.IsZero(s.RollingUpdate.MaxUnavailable) {
		return manifest.Problemf(path, "%s has %s 0 (a rolling update must be allowed at least one unavailable pod)", what, path)
	}
	return nil
}

// Copy makes no PersistentVolumeClaims: the embedded StatefulSet controller
// does not either, and no pod of a rehearsal mounts one.
func (w statefulSet) Copy(m metav1.ObjectMeta) Workload {
	cp := &appsv1.StatefulSet{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}
	cp.Spec.VolumeClaimTemplates = nil
	return statefulSet{cp}
}

func (w statefulSet) Figures() [4]int64 {
	s := w.Status
	return [4]int64{w.Generation<<32 | s.ObservedGeneration, int64(s.Replicas), int64(s.UpdatedReplicas)<<32 | int64(s.ReadyReplicas), int64(s.AvailableReplicas)}
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
func (w statefulSet) MinReadySeconds() int32 { return w.Spec.MinReadySeconds }

func (w statefulSet) OnDelete() bool {
	return w.Spec.UpdateStrategy.Type == appsv1.OnDeleteStatefulSetStrategyType
}

// Surge is 0: a StatefulSet deletes a pod before it makes its successor.
func (statefulSet) Surge() int32 { return 0 }

func (w statefulSet) At(size int32) Workload {
	set := *w.StatefulSet
	set.Spec.Replicas = &size
	return statefulSet{&set}
}

func (statefulSet) Kind() Kind                          { return StatefulSet }
func (w statefulSet) Template() *corev1.PodTemplateSpec { return &w.Spec.Template }
func (w statefulSet) Selector() *metav1.LabelSelector   { return w.Spec.Selector }
func (w statefulSet) Replicas() (int32, bool)           { return model.StatefulSetReplicas(w.StatefulSet), true }
func (w statefulSet) Object() any                       { return w.StatefulSet }
func (w statefulSet) Revisions() (current, update string) {
	return w.Status.CurrentRevision, w.Status.UpdateRevision
}
func (w statefulSet) RolloutStatus() (string, bool, error) {
	return model.StatefulSetRolloutStatus(w.StatefulSet)
}
