package model

import appsv1 "k8s.io/api/apps/v1"

// RolloutHeadroom is how much of the deployment's two rolling-update budgets
// its ReplicaSets use. Surge counts the pods asked for (Σ spec.replicas)
// against replicas + maxSurge; Unavailable counts the replicas not yet
// available (Σ status.availableReplicas short of replicas) against
// maxUnavailable. A Recreate deployment has no surge or unavailability
// allowance, so its limits are spec.replicas and zero.
func RolloutHeadroom(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (surge, unavailable Headroom) {
	replicas := DesiredReplicas(d)
	surge = Headroom{Used: ReplicaCount(rss), Limit: replicas + MaxSurge(d)}
	unavailable = Headroom{Used: max(0, replicas-AvailableReplicaCount(rss)), Limit: MaxUnavailable(d)}
	var ready, available int32
	for _, rs := range rss {
		ready += rs.Status.ReadyReplicas
		available += rs.Status.AvailableReplicas
	}
	unavailable.Waiting = min(max(ready-available, 0), unavailable.Used)
	return surge, unavailable
}

// Headroom is how much of a rollout budget is in use. A rollout stalls when
// a budget is exhausted: Used >= Limit.
type Headroom struct {
	Used, Limit int32
	// Waiting is the part of Used that is ready but not yet available
	// (waiting out minReadySeconds), for the unavailable budget.
	Waiting int32
}

// Exhausted reports whether the budget is used up.
func (h Headroom) Exhausted() bool { return h.Used >= h.Limit }
