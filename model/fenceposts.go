package model

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// ResolveFenceposts turns a rolling update's maxSurge and maxUnavailable into
// pod counts for desired replicas: surge rounds up, unavailability rounds
// down, and when both come out as zero one pod may be unavailable so that the
// rollout can make progress at all. A nil value counts as zero.
func ResolveFenceposts(maxSurge, maxUnavailable *intstr.IntOrString, desired int32) (surge, unavailable int32, err error) {
	s, err := scaledIntOrPercent(maxSurge, desired, true)
	if err != nil {
		return 0, 0, fmt.Errorf("resolve maxSurge %q against %d replicas: %w", maxSurge.String(), desired, err)
	}
	u, err := scaledIntOrPercent(maxUnavailable, desired, false)
	if err != nil {
		return 0, 0, fmt.Errorf("resolve maxUnavailable %q against %d replicas: %w", maxUnavailable.String(), desired, err)
	}
	if s == 0 && u == 0 {
		// Both zero would deadlock the rollout; upstream lets one pod go.
		u = 1
	}
	return s, u, nil
}

// scaledIntOrPercent resolves v (nil meaning zero) against total.
func scaledIntOrPercent(v *intstr.IntOrString, total int32, roundUp bool) (int32, error) {
	if v == nil {
		return 0, nil
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, int(total), roundUp)
	if err != nil {
		return 0, err
	}
	return int32(n), nil
}

// RollingParams returns the deployment's maxSurge and maxUnavailable, nil
// when the strategy carries none.
func RollingParams(d *appsv1.Deployment) (maxSurge, maxUnavailable *intstr.IntOrString) {
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		return ru.MaxSurge, ru.MaxUnavailable
	}
	return nil, nil
}

// IsRollingUpdate reports whether the deployment rolls with the RollingUpdate strategy.
func IsRollingUpdate(d *appsv1.Deployment) bool {
	return d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType
}

// DesiredReplicas is the deployment's spec.replicas; an unset value means 1,
// as the API server defaults it.
func DesiredReplicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// MaxSurge is how many pods a rolling update may run above spec.replicas.
// It is zero for any other strategy; errors in the strategy count as zero, as
// upstream ignores them here (validation rejects them on admission).
func MaxSurge(d *appsv1.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	ms, mu := RollingParams(d)
	surge, _, _ := ResolveFenceposts(ms, mu, DesiredReplicas(d))
	return surge
}

// MaxUnavailable is how many of spec.replicas a rolling update may have
// unavailable, never more than spec.replicas. It is zero for any other
// strategy and for a deployment scaled to zero.
func MaxUnavailable(d *appsv1.Deployment) int32 {
	if !IsRollingUpdate(d) || DesiredReplicas(d) == 0 {
		return 0
	}
	ms, mu := RollingParams(d)
	_, unavailable, _ := ResolveFenceposts(ms, mu, DesiredReplicas(d))
	return min(unavailable, DesiredReplicas(d))
}

// MinAvailable is how many pods a rolling update keeps available: spec.replicas
// less MaxUnavailable. It is zero for any other strategy.
func MinAvailable(d *appsv1.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	return DesiredReplicas(d) - MaxUnavailable(d)
}
