package model

import (
	"math"
	"time"

	appsv1 "k8s.io/api/apps/v1"
)

// HasProgressDeadline reports whether the deployment sets a finite progressDeadlineSeconds.
func HasProgressDeadline(d *appsv1.Deployment) bool {
	p := d.Spec.ProgressDeadlineSeconds
	return p != nil && *p != math.MaxInt32
}

// HasRevisionHistoryLimit reports whether the deployment bounds how many old
// ReplicaSets it keeps.
func HasRevisionHistoryLimit(d *appsv1.Deployment) bool {
	l := d.Spec.RevisionHistoryLimit
	return l != nil && *l != math.MaxInt32
}

// DeploymentComplete reports whether status s shows the deployment's latest
// rollout done: every replica updated and available, no old ones left, and
// the latest spec observed.
func DeploymentComplete(d *appsv1.Deployment, s *appsv1.DeploymentStatus) bool {
	n := DesiredReplicas(d)
	return s.UpdatedReplicas == n && s.Replicas == n && s.AvailableReplicas == n &&
		s.ObservedGeneration >= d.Generation
}

// deploymentProgressing reports whether status s moved the rollout forward
// compared with the deployment's recorded status: more updated, fewer old,
// more ready or more available replicas.
func deploymentProgressing(d *appsv1.Deployment, s *appsv1.DeploymentStatus) bool {
	old := d.Status
	oldStale := old.Replicas - old.UpdatedReplicas
	newStale := s.Replicas - s.UpdatedReplicas
	return s.UpdatedReplicas > old.UpdatedReplicas || newStale < oldStale ||
		s.ReadyReplicas > old.ReadyReplicas || s.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut reports whether the rollout in status s has gone
// progressDeadlineSeconds without progress at now. A completed rollout never
// times out; one already marked ProgressDeadlineExceeded stays timed out.
func deploymentTimedOut(now time.Time, d *appsv1.Deployment, s *appsv1.DeploymentStatus) bool {
	if !HasProgressDeadline(d) {
		return false
	}
	c := GetDeploymentCondition(*s, appsv1.DeploymentProgressing)
	if c == nil {
		return false
	}
	switch c.Reason {
	case ReasonNewReplicaSetAvailable:
		return false
	case ReasonProgressDeadlineExceeded:
		return true
	}
	deadline := c.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second)
	return deadline.Before(now)
}

// ProgressCheckAfter is how long after now the deployment should be looked at
// again to notice a missed progress deadline; ok is false when no check is
// due (no deadline, no Progressing condition in the recorded status, the
// rollout complete in s, or already timed out). A value below one second
// means "now".
func ProgressCheckAfter(now time.Time, d *appsv1.Deployment, s *appsv1.DeploymentStatus) (after time.Duration, ok bool) {
	c := GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing)
	if !HasProgressDeadline(d) || c == nil {
		return 0, false
	}
	if DeploymentComplete(d, s) || c.Reason == ReasonProgressDeadlineExceeded {
		return 0, false
	}
	deadline := c.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second)
	return deadline.Sub(now), true
}
