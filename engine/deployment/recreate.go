package deployment

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// rolloutRecreate takes one step of a Recreate rollout: scale every old
// ReplicaSet to zero, wait until no old pod is left running, then create (or
// grow) the new ReplicaSet to spec.replicas.
func (c *Controller) rolloutRecreate(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, pods map[types.UID][]*corev1.Pod) error {
	// No new ReplicaSet yet: creating it now would scale up before down.
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)

	scaledDown, err := c.scaleDownOldReplicaSetsForRecreate(ctx, model.FilterActive(oldRSs), d)
	if err != nil {
		return err
	}
	if scaledDown || oldPodsRunning(newRS, oldRSs, pods) {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if newRS == nil {
		newRS, oldRSs, err = c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
		if err != nil {
			return err
		}
		allRSs = append(oldRSs, newRS)
	}
	if _, _, err := c.scaleReplicaSetAndRecordEvent(ctx, newRS, model.DesiredReplicas(d), d); err != nil {
		return err
	}
	if model.DeploymentComplete(d, &d.Status) {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// scaleDownOldReplicaSetsForRecreate scales every given ReplicaSet to zero.
func (c *Controller) scaleDownOldReplicaSetsForRecreate(ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error) {
	scaled := false
	for i, rs := range oldRSs {
		if model.SpecReplicas(rs) == 0 {
			continue
		}
		did, updated, err := c.scaleReplicaSetAndRecordEvent(ctx, rs, 0, d)
		if err != nil {
			return false, err
		}
		if did {
			oldRSs[i] = updated
			scaled = true
		}
	}
	return scaled, nil
}

// oldPodsRunning reports whether any old pod may still run: old ReplicaSets
// still report replicas, or a pod outside the new ReplicaSet has not
// finished (Unknown counts as running: it cannot be known not to be).
func oldPodsRunning(newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet, pods map[types.UID][]*corev1.Pod) bool {
	if model.ActualReplicaCount(oldRSs) > 0 {
		return true
	}
	for uid, list := range pods {
		if newRS != nil && newRS.UID == uid {
			continue
		}
		for _, p := range list {
			if p.Status.Phase != corev1.PodFailed && p.Status.Phase != corev1.PodSucceeded {
				return true
			}
		}
	}
	return false
}
