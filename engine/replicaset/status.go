package replicaset

import (
	"context"
	"reflect"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Reasons of the ReplicaFailure condition.
const (
	reasonFailedCreateCondition = "FailedCreate"
	reasonFailedDeleteCondition = "FailedDelete"
)

// statusUpdateRetries is how many times a conflicting status write is retried
// on a freshly read owner.
const statusUpdateRetries = 1

// calculateStatus counts pods (the owner's active pods, as they were before
// this sync's creations and deletions, each with what it counts as: full
// labels, readiness) and sets or clears the ReplicaFailure condition
// after manageErr.
func (c *Controller) calculateStatus(o owner, pods claimedPods, manageErr error) appsv1.ReplicaSetStatus {
	rs := o.rs
	status := rs.Status
	status.Conditions = slices.Clone(rs.Status.Conditions)
	now := c.env.Clock.Now()
	var fullyLabeled, ready, available int32
	if t := pods.tally; t != nil {
		// Available as soon as ready: fromTally asks minReadySeconds 0.
		fullyLabeled, ready, available = t.labelled, t.ready, t.ready
	}
	for i := range pods.facts {
		f := &pods.facts[i]
		if f.fullyLabeled {
			fullyLabeled++
		}
		if f.ready {
			ready++
			if f.available(rs.Spec.MinReadySeconds, now) {
				available++
			}
		}
	}
	status.Replicas = int32(pods.len())
	status.FullyLabeledReplicas = fullyLabeled
	status.ReadyReplicas = ready
	status.AvailableReplicas = available

	failure := replicaFailure(status.Conditions)
	switch {
	case manageErr != nil && failure < 0:
		reason := ""
		if diff := pods.len() - desiredReplicas(o); diff < 0 {
			reason = reasonFailedCreateCondition
		} else if diff > 0 {
			reason = reasonFailedDeleteCondition
		}
		status.Conditions = append(status.Conditions, appsv1.ReplicaSetCondition{
			Type:               appsv1.ReplicaSetReplicaFailure,
			Status:             corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(now),
			Reason:             reason,
			Message:            manageErr.Error(),
		})
	case manageErr == nil && failure >= 0:
		status.Conditions = slices.Delete(status.Conditions, failure, failure+1)
	}
	return status
}

func replicaFailure(conds []appsv1.ReplicaSetCondition) int {
	for i, c := range conds {
		if c.Type == appsv1.ReplicaSetReplicaFailure {
			return i
		}
	}
	return -1
}

// updateStatus writes status unless the owner already shows it for its
// current generation, retrying once on a freshly read owner.
func (c *Controller) updateStatus(ctx context.Context, o owner, status appsv1.ReplicaSetStatus) (owner, error) {
	rs := o.rs
	if rs.Status.Replicas == status.Replicas &&
		rs.Status.FullyLabeledReplicas == status.FullyLabeledReplicas &&
		rs.Status.ReadyReplicas == status.ReadyReplicas &&
		rs.Status.AvailableReplicas == status.AvailableReplicas &&
		rs.Generation == rs.Status.ObservedGeneration &&
		reflect.DeepEqual(rs.Status.Conditions, status.Conditions) {
		return o, nil
	}
	status.ObservedGeneration = rs.Generation
	var err error
	for i := 0; ; i++ {
		var updated owner
		updated, err = c.kind.writeStatus(ctx, o, status)
		if err == nil {
			return updated, nil
		}
		if i >= statusUpdateRetries {
			break
		}
		fresh, getErr := c.kind.fromAPI(ctx, rs.Namespace, rs.Name)
		if getErr != nil {
			return owner{}, getErr
		}
		o = fresh
	}
	return owner{}, err
}
