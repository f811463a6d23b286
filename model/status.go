package model

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// CalculateStatus is the deployment status its ReplicaSets add up to: counts
// summed over allRSs (updated replicas from newRS, which may be nil), the
// existing conditions carried over, and Available set from whether at least
// spec.replicas - maxUnavailable pods are available.
func CalculateStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment, now time.Time) appsv1.DeploymentStatus {
	available := AvailableReplicaCount(allRSs)
	// Unavailable counts against what the ReplicaSets are asked for, not
	// what they run (upstream quirk).
	unavailable := max(ReplicaCount(allRSs)-available, 0)
	s := appsv1.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            ActualReplicaCount(allRSs),
		UpdatedReplicas:     ActualReplicaCount([]*appsv1.ReplicaSet{newRS}),
		ReadyReplicas:       readyReplicaCount(allRSs),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		CollisionCount:      d.Status.CollisionCount,
	}
	s.Conditions = append(s.Conditions, d.Status.Conditions...)
	if available >= DesiredReplicas(d)-MaxUnavailable(d) {
		SetDeploymentCondition(&s, NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue,
			reasonMinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		SetDeploymentCondition(&s, NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionFalse,
			reasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	return s
}

// RolloutProgressStatus calculates the deployment's status for a rollout in
// progress (syncRolloutStatus): CalculateStatus plus the Progressing
// condition — complete, progressing (which refreshes the progress clock) or
// timed out at now — and the new (else any) ReplicaSet's ReplicaFailure.
func RolloutProgressStatus(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment, now time.Time) appsv1.DeploymentStatus {
	s := CalculateStatus(allRSs, newRS, d, now)
	if !HasProgressDeadline(d) {
		removeDeploymentCondition(&s, appsv1.DeploymentProgressing)
	}
	cur := GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing)
	// A finished rollout on resync needs no estimate of its progress.
	complete := s.Replicas == s.UpdatedReplicas && cur != nil && cur.Reason == ReasonNewReplicaSetAvailable
	if HasProgressDeadline(d) && !complete {
		subject := fmt.Sprintf("Deployment %q", d.Name)
		if newRS != nil {
			subject = fmt.Sprintf("ReplicaSet %q", newRS.Name)
		}
		switch {
		case DeploymentComplete(d, &s):
			SetDeploymentCondition(&s, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue,
				ReasonNewReplicaSetAvailable, subject+" has successfully progressed.", now))
		case deploymentProgressing(d, &s):
			c := NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue,
				ReasonReplicaSetUpdated, subject+" is progressing.", now)
			// Progress always refreshes lastUpdateTime, even with an
			// unchanged reason, which SetDeploymentCondition alone would skip.
			if cur != nil {
				if cur.Status == corev1.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				removeDeploymentCondition(&s, appsv1.DeploymentProgressing)
			}
			SetDeploymentCondition(&s, c)
		case deploymentTimedOut(now, d, &s):
			SetDeploymentCondition(&s, NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse,
				ReasonProgressDeadlineExceeded, subject+" has timed out progressing.", now))
		}
	}
	if failures := replicaFailures(allRSs, newRS); len(failures) > 0 {
		SetDeploymentCondition(&s, failures[0])
	} else {
		removeDeploymentCondition(&s, appsv1.DeploymentReplicaFailure)
	}
	return s
}

// replicaFailures lifts ReplicaFailure conditions, the new ReplicaSet's first.
func replicaFailures(allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []appsv1.DeploymentCondition {
	var out []appsv1.DeploymentCondition
	collect := func(rs *appsv1.ReplicaSet) {
		for _, c := range rs.Status.Conditions {
			if c.Type == appsv1.ReplicaSetReplicaFailure {
				out = append(out, replicaSetToDeploymentCondition(c))
			}
		}
	}
	if newRS != nil {
		collect(newRS)
	}
	if len(out) > 0 {
		return out
	}
	for _, rs := range allRSs {
		if rs != nil {
			collect(rs)
		}
	}
	return out
}
