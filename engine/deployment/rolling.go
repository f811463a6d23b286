package deployment

import (
	"context"
	"fmt"
	"slices"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// rolloutRolling takes one step of a rolling update: scale the new
// ReplicaSet up within the surge budget or, if it cannot move, scale old ones
// down within the availability budget — never both in one sync. Once the
// recorded status shows the rollout complete, old history is trimmed.
func (c *Controller) rolloutRolling(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)

	scaledUp, err := c.reconcileNewReplicaSet(ctx, allRSs, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	scaledDown, err := c.reconcileOldReplicaSets(ctx, allRSs, model.FilterActive(oldRSs), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if model.DeploymentComplete(d, &d.Status) {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// reconcileNewReplicaSet moves the new ReplicaSet toward spec.replicas: down
// at once if it is above, up as far as NewRSNewReplicas allows otherwise.
func (c *Controller) reconcileNewReplicaSet(ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	want := model.DesiredReplicas(d)
	switch have := model.SpecReplicas(newRS); {
	case have == want:
		return false, nil
	case have > want:
		scaled, _, err := c.scaleReplicaSetAndRecordEvent(ctx, newRS, want, d)
		return scaled, err
	}
	n, err := model.NewRSNewReplicas(d, allRSs, newRS)
	if err != nil {
		return false, err
	}
	scaled, _, err := c.scaleReplicaSetAndRecordEvent(ctx, newRS, n, d)
	return scaled, err
}

// reconcileOldReplicaSets scales old ReplicaSets down as far as availability
// allows: first the pods that are not available anyway (they block the
// rollout otherwise), then available ones down to minAvailable. The new
// ReplicaSet's unavailable pods count against the budget, so a broken new
// version stops the old one from draining. Errors on the way only stop this
// step, as upstream.
func (c *Controller) reconcileOldReplicaSets(ctx context.Context, allRSs, oldRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	if model.ReplicaCount(oldRSs) == 0 {
		return false, nil
	}
	minAvailable := model.MinAvailable(d)
	newUnavailable := model.SpecReplicas(newRS) - newRS.Status.AvailableReplicas
	maxScaledDown := model.ReplicaCount(allRSs) - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	oldRSs, cleaned, err := c.cleanupUnhealthyReplicas(ctx, oldRSs, d, maxScaledDown)
	if err != nil {
		return false, nil
	}
	scaledDown, err := c.scaleDownOldReplicaSetsForRollingUpdate(ctx, append(slices.Clone(oldRSs), newRS), oldRSs, d)
	if err != nil {
		return false, nil
	}
	return cleaned+scaledDown > 0, nil
}

// cleanupUnhealthyReplicas scales old ReplicaSets down by their unavailable
// pods, oldest first, at most maxCleanup in all. It returns the old
// ReplicaSets as written and how many pods it removed.
func (c *Controller) cleanupUnhealthyReplicas(ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment, maxCleanup int32) ([]*appsv1.ReplicaSet, int32, error) {
	model.SortByCreationTimestamp(oldRSs)
	var total int32
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		size := model.SpecReplicas(rs)
		if size == 0 || size == rs.Status.AvailableReplicas {
			continue
		}
		n := min(maxCleanup-total, size-rs.Status.AvailableReplicas)
		if size-n > size {
			return nil, 0, fmt.Errorf("when cleaning up unhealthy replicas, got invalid request to scale down %s/%s %d -> %d", rs.Namespace, rs.Name, size, size-n)
		}
		_, updated, err := c.scaleReplicaSetAndRecordEvent(ctx, rs, size-n, d)
		if err != nil {
			return nil, total, err
		}
		total += n
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate removes available old pods, oldest
// ReplicaSet first, while more than minAvailable pods are available in all.
func (c *Controller) scaleDownOldReplicaSetsForRollingUpdate(ctx context.Context, allRSs, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) (int32, error) {
	minAvailable := model.MinAvailable(d)
	available := model.AvailableReplicaCount(allRSs)
	if available <= minAvailable {
		return 0, nil
	}
	model.SortByCreationTimestamp(oldRSs)
	target := available - minAvailable
	var total int32
	for _, rs := range oldRSs {
		if total >= target {
			break
		}
		size := model.SpecReplicas(rs)
		if size == 0 {
			continue
		}
		n := min(size, target-total)
		if size-n > size {
			return 0, fmt.Errorf("when scaling down old replica sets, got invalid request to scale down %s/%s %d -> %d", rs.Namespace, rs.Name, size, size-n)
		}
		if _, _, err := c.scaleReplicaSetAndRecordEvent(ctx, rs, size-n, d); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
