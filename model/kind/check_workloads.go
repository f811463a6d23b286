package kind

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model/manifest"
)

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
