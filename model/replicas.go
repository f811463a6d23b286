package model

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
)

// SpecReplicas is a ReplicaSet's spec.replicas; an unset value means 1, as
// the API server defaults it, and no ReplicaSet at all means 0.
func SpecReplicas(rs *appsv1.ReplicaSet) int32 {
	if rs == nil {
		return 0
	}
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// sumOver adds up one count over the ReplicaSets, skipping nil entries.
func sumOver(rss []*appsv1.ReplicaSet, count func(*appsv1.ReplicaSet) int32) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += count(rs)
		}
	}
	return n
}

// ReplicaCount sums spec.replicas: the pods the ReplicaSets are asked to run.
func ReplicaCount(rss []*appsv1.ReplicaSet) int32 {
	return sumOver(rss, SpecReplicas)
}

// ActualReplicaCount sums status.replicas: the pods the ReplicaSets run now.
func ActualReplicaCount(rss []*appsv1.ReplicaSet) int32 {
	return sumOver(rss, func(rs *appsv1.ReplicaSet) int32 { return rs.Status.Replicas })
}

// readyReplicaCount sums status.readyReplicas.
func readyReplicaCount(rss []*appsv1.ReplicaSet) int32 {
	return sumOver(rss, func(rs *appsv1.ReplicaSet) int32 { return rs.Status.ReadyReplicas })
}

// AvailableReplicaCount sums status.availableReplicas.
func AvailableReplicaCount(rss []*appsv1.ReplicaSet) int32 {
	return sumOver(rss, func(rs *appsv1.ReplicaSet) int32 { return rs.Status.AvailableReplicas })
}

// isActive reports whether a ReplicaSet is asked to run any pod.
func isActive(rs *appsv1.ReplicaSet) bool {
	return rs != nil && SpecReplicas(rs) > 0
}

// FilterActive keeps the ReplicaSets that are asked to run pods, in order.
func FilterActive(rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, rs := range rss {
		if isActive(rs) {
			out = append(out, rs)
		}
	}
	return out
}

// NewRSNewReplicas is the size the new ReplicaSet should grow to now: for a
// rolling update as far as the surge budget (spec.replicas + maxSurge, less
// what allRSs already ask for) allows, never beyond spec.replicas; for
// Recreate straight to spec.replicas.
func NewRSNewReplicas(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (int32, error) {
	switch d.Spec.Strategy.Type {
	case appsv1.RollingUpdateDeploymentStrategyType:
		// Unlike MaxSurge, no fencepost adjustment here (upstream quirk).
		ms, _ := RollingParams(d)
		surge, err := scaledIntOrPercent(ms, DesiredReplicas(d), true)
		if err != nil {
			return 0, fmt.Errorf("size new replica set of deployment %s: %w", d.Name, err)
		}
		current := ReplicaCount(allRSs)
		maxTotal := DesiredReplicas(d) + surge
		if current >= maxTotal {
			return SpecReplicas(newRS), nil
		}
		up := min(maxTotal-current, DesiredReplicas(d)-SpecReplicas(newRS))
		return SpecReplicas(newRS) + up, nil
	case appsv1.RecreateDeploymentStrategyType:
		return DesiredReplicas(d), nil
	default:
		return 0, fmt.Errorf("deployment %s: strategy type %q isn't supported; use RollingUpdate or Recreate", d.Name, d.Spec.Strategy.Type)
	}
}
