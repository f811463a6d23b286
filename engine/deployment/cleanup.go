package deployment

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// cleanupDeployment deletes old ReplicaSets beyond revisionHistoryLimit,
// lowest revision first. Only the surplus lowest revisions are candidates,
// and one that still has pods, has an unobserved spec or is being deleted is
// skipped, not replaced by a later one.
func (c *Controller) cleanupDeployment(ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) error {
	if !model.HasRevisionHistoryLimit(d) {
		return nil
	}
	var cleanable []*appsv1.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	surplus := len(cleanable) - int(*d.Spec.RevisionHistoryLimit)
	if surplus <= 0 {
		return nil
	}
	model.SortByRevision(cleanable)
	for _, rs := range cleanable[:surplus] {
		if rs.Status.Replicas != 0 || model.SpecReplicas(rs) != 0 || rs.Generation > rs.Status.ObservedGeneration || rs.DeletionTimestamp != nil {
			continue
		}
		err := c.env.Client.AppsV1().ReplicaSets(rs.Namespace).Delete(ctx, rs.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete old replica set %s/%s beyond revisionHistoryLimit: %w", rs.Namespace, rs.Name, err)
		}
	}
	return nil
}
