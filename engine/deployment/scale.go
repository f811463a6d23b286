package deployment

import (
	"context"
	"fmt"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// scaleReplicaSetAndRecordEvent resizes rs to size unless it already is that
// size. It reports whether it scaled and returns the ReplicaSet as written.
func (c *Controller) scaleReplicaSetAndRecordEvent(ctx context.Context, rs *appsv1.ReplicaSet, size int32, d *appsv1.Deployment) (bool, *appsv1.ReplicaSet, error) {
	if model.SpecReplicas(rs) == size {
		return false, rs, nil
	}
	return c.scaleReplicaSet(ctx, rs, size, d)
}

// scaleReplicaSet writes rs with size replicas and the deployment's current
// desired/max replicas annotations, if either differs, and records a
// ScalingReplicaSet event when the size changed.
func (c *Controller) scaleReplicaSet(ctx context.Context, rs *appsv1.ReplicaSet, size int32, d *appsv1.Deployment) (bool, *appsv1.ReplicaSet, error) {
	oldSize := model.SpecReplicas(rs)
	desired, max := model.DesiredReplicas(d), model.DesiredReplicas(d)+model.MaxSurge(d)
	resize := oldSize != size
	if !resize && !model.ReplicasAnnotationsNeedUpdate(rs, desired, max) {
		return false, rs, nil
	}
	cp := rs.DeepCopy()
	cp.Spec.Replicas = &size
	model.SetReplicasAnnotations(cp, desired, max)
	updated, err := c.env.Client.AppsV1().ReplicaSets(cp.Namespace).Update(ctx, cp, metav1.UpdateOptions{})
	if err != nil {
		return false, rs, fmt.Errorf("scale replica set %s/%s from %d to %d: %w", rs.Namespace, rs.Name, oldSize, size, err)
	}
	if !resize {
		return false, updated, nil
	}
	op := "down"
	if oldSize < size {
		op = "up"
	}
	c.env.Events.Eventf(d, corev1.EventTypeNormal, model.EventScalingReplicaSet, "Scaled %s replica set %s from %d to %d", op, updated.Name, oldSize, size)
	return true, updated, nil
}

// isScalingEvent reports whether spec.replicas changed since an active
// ReplicaSet was last sized (its desired-replicas annotation says so). Such a
// change is handled by proportional scaling, not by rolling.
func (c *Controller) isScalingEvent(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range model.FilterActive(append(oldRSs, newRS)) {
		if desired, ok := model.AnnotatedReplicas(rs, model.DesiredReplicasAnnotation); ok && desired != model.DesiredReplicas(d) {
			return true, nil
		}
	}
	return false, nil
}

// scale brings the ReplicaSets to the deployment's size without rolling: the
// one active (or latest) ReplicaSet takes spec.replicas; a saturated new one
// lets every old one go; otherwise, for a rolling update, the difference to
// spec.replicas + maxSurge is shared out in proportion to size, leftovers to
// the largest.
func (c *Controller) scale(ctx context.Context, d *appsv1.Deployment, newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) error {
	// Upstream sorts the old ReplicaSets newest first while looking for the
	// active or latest one, and walks them in that order from then on.
	olds := slices.Clone(oldRSs)
	model.SortByCreationTimestampNewestFirst(olds)
	if rs := model.FindActiveOrLatest(newRS, olds); rs != nil {
		if model.SpecReplicas(rs) == model.DesiredReplicas(d) {
			return nil
		}
		_, _, err := c.scaleReplicaSetAndRecordEvent(ctx, rs, model.DesiredReplicas(d), d)
		return err
	}
	if model.IsSaturated(d, newRS) {
		for _, old := range model.FilterActive(olds) {
			if _, _, err := c.scaleReplicaSetAndRecordEvent(ctx, old, 0, d); err != nil {
				return err
			}
		}
		return nil
	}
	if !model.IsRollingUpdate(d) {
		// Recreate never runs two ReplicaSets at once on purpose; leave them.
		return nil
	}
	active := model.FilterActive(append(olds, newRS))

	allowed := int32(0)
	if model.DesiredReplicas(d) > 0 {
		allowed = model.DesiredReplicas(d) + model.MaxSurge(d)
	}
	toAdd := allowed - model.ReplicaCount(active)
	switch {
	case toAdd > 0:
		// Growing: among equals the newer ReplicaSet grows first.
		model.SortBySizeNewer(active)
	case toAdd < 0:
		// Shrinking: among equals the older ReplicaSet shrinks first.
		model.SortBySizeOlder(active)
	}
	sizes := make([]int32, len(active))
	added := int32(0)
	for i, rs := range active {
		sizes[i] = model.SpecReplicas(rs)
		if toAdd != 0 {
			p := model.ReplicaSetProportion(rs, d, toAdd, added)
			sizes[i] += p
			added += p
		}
	}
	for i, rs := range active {
		if i == 0 && toAdd != 0 {
			sizes[0] = max(sizes[0]+toAdd-added, 0)
		}
		if _, _, err := c.scaleReplicaSet(ctx, rs, sizes[i], d); err != nil {
			return err
		}
	}
	return nil
}
