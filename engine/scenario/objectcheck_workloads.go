package scenario

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// checkStatefulSet rejects what apps/v1 validation rejects of a StatefulSet.
func checkStatefulSet(o *appsv1.StatefulSet) *problem {
	what := fmt.Sprintf("StatefulSet %q", o.Name)
	if p := first(
		checkMeta(&o.ObjectMeta, "StatefulSet", validation.IsDNS1123Subdomain),
		checkReplicas(o.Spec.Replicas, what),
		checkSelector(o.Spec.Selector, o.Spec.Template.Labels, what),
		nonNegative(o.Spec.MinReadySeconds, "spec.minReadySeconds", what),
		optionalNonNegative(o.Spec.RevisionHistoryLimit, "spec.revisionHistoryLimit", what),
		checkPodSpec(&o.Spec.Template.Spec, "spec.template.spec", what),
	); p != nil {
		return p
	}
	switch o.Spec.PodManagementPolicy {
	case "", appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	default:
		return problemf("spec.podManagementPolicy", "%s has podManagementPolicy %q (use OrderedReady or Parallel)", what, o.Spec.PodManagementPolicy)
	}
	s := o.Spec.UpdateStrategy
	switch s.Type {
	case "", appsv1.RollingUpdateStatefulSetStrategyType:
	case appsv1.OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return problemf("spec.updateStrategy.rollingUpdate", "%s sets rollingUpdate with updateStrategy type OnDelete (remove rollingUpdate or use type RollingUpdate)", what)
		}
		return nil
	default:
		return problemf("spec.updateStrategy.type", "%s has updateStrategy type %q (use RollingUpdate or OnDelete)", what, s.Type)
	}
	if s.RollingUpdate == nil {
		return nil
	}
	if p := optionalNonNegative(s.RollingUpdate.Partition, "spec.updateStrategy.rollingUpdate.partition", what); p != nil {
		return p
	}
	const path = "spec.updateStrategy.rollingUpdate.maxUnavailable"
	if p := checkBudget(s.RollingUpdate.MaxUnavailable, path, what, true); p != nil {
		return p
	}
	if s.RollingUpdate.MaxUnavailable != nil && isZero(s.RollingUpdate.MaxUnavailable) {
		return problemf(path, "%s has %s 0 (a rolling update must be allowed at least one unavailable pod)", what, path)
	}
	return nil
}

// checkDaemonSetStrategy rejects what apps/v1 validation rejects of a
// DaemonSet's update strategy.
func checkDaemonSetStrategy(o *appsv1.DaemonSet) *problem {
	what := fmt.Sprintf("DaemonSet %q", o.Name)
	if p := first(
		nonNegative(o.Spec.MinReadySeconds, "spec.minReadySeconds", what),
		optionalNonNegative(o.Spec.RevisionHistoryLimit, "spec.revisionHistoryLimit", what),
	); p != nil {
		return p
	}
	s := o.Spec.UpdateStrategy
	switch s.Type {
	case "", appsv1.RollingUpdateDaemonSetStrategyType:
	case appsv1.OnDeleteDaemonSetStrategyType:
		return nil
	default:
		return problemf("spec.updateStrategy.type", "%s has updateStrategy type %q (use RollingUpdate or OnDelete)", what, s.Type)
	}
	ru := s.RollingUpdate
	if ru == nil {
		return nil
	}
	if p := first(
		checkBudget(ru.MaxSurge, "spec.updateStrategy.rollingUpdate.maxSurge", what, true),
		checkBudget(ru.MaxUnavailable, "spec.updateStrategy.rollingUpdate.maxUnavailable", what, true),
	); p != nil {
		return p
	}
	surge := ru.MaxSurge != nil && !isZero(ru.MaxSurge)
	unavailable := ru.MaxUnavailable == nil || !isZero(ru.MaxUnavailable)
	if !surge && !unavailable {
		return problemf("spec.updateStrategy.rollingUpdate.maxUnavailable", "%s has maxUnavailable and maxSurge both 0 (one of them must allow progress)", what)
	}
	return nil
}
