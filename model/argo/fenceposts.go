package argo

import (
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Argo's defaults (utils/defaults): a Rollout without replicas has one;
// maxSurge and maxUnavailable are "25", which
// intstr.GetValueFromIntOrPercent reads as 25 %.
const (
	defaultReplicas       = 1
	defaultMaxSurge       = "25"
	defaultMaxUnavailable = "25"
)

// MaxSurge is how many pods over spec.replicas Argo's controller lets a
// Rollout run (utils/replicaset.MaxSurge, v1.10): a canary's maxSurge
// rounded up from its percentage, 0 for blue/green, whose preview set is
// a whole second set instead.
func MaxSurge(r *Rollout) int32 {
	if r.Spec.Strategy.Canary == nil {
		return 0
	}
	surge, _ := resolveFenceposts(maxSurgeOrDefault(r), maxUnavailableOrDefault(r), replicasOrDefault(r))
	return surge
}

// MaxUnavailable is how many of spec.replicas Argo's controller lets be
// unavailable (utils/replicaset.MaxUnavailable, v1.10): rounded down from
// its percentage; a canary's is 1 when both it and maxSurge come to 0;
// never more than spec.replicas, and 0 for no replicas.
func MaxUnavailable(r *Rollout) int32 {
	replicas := replicasOrDefault(r)
	if replicas == 0 {
		return 0
	}
	var unavailable int32
	if r.Spec.Strategy.Canary != nil {
		_, unavailable = resolveFenceposts(maxSurgeOrDefault(r), maxUnavailableOrDefault(r), replicas)
	} else {
		n, _ := intstr.GetValueFromIntOrPercent(maxUnavailableOrDefault(r), int(replicas), false)
		unavailable = int32(n)
	}
	return min(unavailable, replicas)
}

// resolveFenceposts is Argo's: maxSurge rounded up, maxUnavailable down,
// and maxUnavailable 1 when both come to 0. A value Argo's validation
// refuses resolves to 0, 0 as the controller's does.
func resolveFenceposts(maxSurge, maxUnavailable *intstr.IntOrString, desired int32) (int32, int32) {
	surge, err := intstr.GetValueFromIntOrPercent(maxSurge, int(desired), true)
	if err != nil {
		return 0, 0
	}
	unavailable, err := intstr.GetValueFromIntOrPercent(maxUnavailable, int(desired), false)
	if err != nil {
		return 0, 0
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return int32(surge), int32(unavailable)
}

func replicasOrDefault(r *Rollout) int32 {
	if r.Spec.Replicas == nil {
		return defaultReplicas
	}
	return *r.Spec.Replicas
}

func maxSurgeOrDefault(r *Rollout) *intstr.IntOrString {
	if c := r.Spec.Strategy.Canary; c != nil && c.MaxSurge != nil {
		return c.MaxSurge
	}
	v := intstr.FromString(defaultMaxSurge)
	return &v
}

func maxUnavailableOrDefault(r *Rollout) *intstr.IntOrString {
	if bg := r.Spec.Strategy.BlueGreen; bg != nil && bg.MaxUnavailable != nil {
		return bg.MaxUnavailable
	}
	if c := r.Spec.Strategy.Canary; c != nil && c.MaxUnavailable != nil {
		return c.MaxUnavailable
	}
	v := intstr.FromString(defaultMaxUnavailable)
	return &v
}
