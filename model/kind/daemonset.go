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

// A DaemonSet as the registry reads it: one pod per eligible node, and
// ControllerRevisions for history.
type daemonSet struct{ *appsv1.DaemonSet }

// Check rejects what apps/v1 validation rejects of a DaemonSet.
func (w daemonSet) Check() *manifest.Problem {
	o := w.DaemonSet
	what := fmt.Sprintf("DaemonSet %q", o.Name)
	if p := manifest.First(
		manifest.Meta(&o.ObjectMeta, "DaemonSet", validation.IsDNS1123Subdomain),
		manifest.Selector(o.Spec.Selector, o.Spec.Template.Labels, what),
		manifest.PodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
	); p != nil {
		return p
	}
	if p := manifest.First(
		manifest.NonNegative(o.Spec.MinReadySeconds, "spec.minReadySeconds", what),
		manifest.OptionalNonNegative(o.Spec.RevisionHistoryLimit, "spec.revisionHistoryLimit", what),
	); p != nil {
		return p
	}
	s := o.Spec.UpdateStrategy
	switch s.Type {
	case "", appsv1.RollingUpdateDaemonSetStrategyType:
	case appsv1.OnDeleteDaemonSetStrategyType:
		return nil
	default:
		return manifest.Problemf("spec.updateStrategy.type", "%s has updateStrategy type %q (use RollingUpdate or OnDelete)", what, s.Type)
	}
	ru := s.RollingUpdate
	if ru == nil {
		return nil
	}
	if p := manifest.First(
		manifest.Budget(ru.MaxSurge, "spec.updateStrategy.rollingUpdate.maxSurge", what, true),
		manifest.Budget(ru.MaxUnavailable, "spec.updateStrategy.rollingUpdate.maxUnavailable", what, true),
	); p != nil {
		return p
	}
	surge := ru.MaxSurge != nil && !manifest.IsZero(ru.MaxSurge)
	unavailable := ru.MaxUnavailable == nil || !manifest.IsZero(ru.MaxUnavailable)
	if !surge && !unavailable {
		return manifest.Problemf("spec.updateStrategy.rollingUpdate.maxUnavailable", "%s has maxUnavailable and maxSurge both 0 (one of them must allow progress)", what)
	}
	return nil
}

func (w daemonSet) Copy(m metav1.ObjectMeta) Workload {
	return daemonSet{&appsv1.DaemonSet{ObjectMeta: m, Spec: *w.Spec.DeepCopy()}}
}

func (w daemonSet) Figures() [4]int64 {
	s := w.Status
	return [4]int64{w.Generation<<32 | s.ObservedGeneration, int64(s.DesiredNumberScheduled)<<32 | int64(s.CurrentNumberScheduled),
		int64(s.UpdatedNumberScheduled)<<32 | int64(s.NumberReady), int64(s.NumberAvailable)}
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
func (w daemonSet) MinReadySeconds() int32 { return w.Spec.MinReadySeconds }

func (w daemonSet) OnDelete() bool {
	return w.Spec.UpdateStrategy.Type == appsv1.OnDeleteDaemonSetStrategyType
}

// Surge is maxSurge over the nodes the DaemonSet runs on: each of that many
// nodes runs the new pod beside the old until it is available.
func (w daemonSet) Surge() int32 {
	surge, _, err := model.DaemonSetBudget(w.DaemonSet, int(w.Status.DesiredNumberScheduled))
	if err != nil {
		return 0
	}
	return int32(surge)
}

// At is the DaemonSet scheduled on size nodes.
func (w daemonSet) At(size int32) Workload {
	ds := *w.DaemonSet
	ds.Status.DesiredNumberScheduled = size
	return daemonSet{&ds}
}

func (daemonSet) Kind() Kind                          { return DaemonSet }
func (w daemonSet) Template() *corev1.PodTemplateSpec { return &w.Spec.Template }
func (w daemonSet) Selector() *metav1.LabelSelector   { return w.Spec.Selector }
func (w daemonSet) Replicas() (int32, bool)           { return 0, false }
func (w daemonSet) Object() any                       { return w.DaemonSet }
func (w daemonSet) Revisions() (current, update string) {
	g := w.Annotations[model.DaemonSetTemplateGenerationAnnotation]
	return g, g
}
func (w daemonSet) RolloutStatus() (string, bool, error) {
	return model.DaemonSetRolloutStatus(w.DaemonSet)
}
