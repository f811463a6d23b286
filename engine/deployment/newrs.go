package deployment

import (
	"context"
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// getAllReplicaSetsAndSyncRevision splits rsList into the new ReplicaSet
// (created first when create is set and none runs the current template) and
// the old ones, bringing the new one's revision and annotations and the
// deployment's revision up to date on the way.
func (c *Controller) getAllReplicaSetsAndSyncRevision(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, create bool) (*appsv1.ReplicaSet, []*appsv1.ReplicaSet, error) {
	existing := model.FindNewReplicaSet(d, rsList)
	_, oldRSs := model.OldReplicaSetsBesides(existing, rsList)
	newRS, err := c.getNewReplicaSet(ctx, d, existing, oldRSs, create)
	if err != nil {
		return nil, nil, err
	}
	return newRS, oldRSs, nil
}

// getNewReplicaSet returns the ReplicaSet running the deployment's template
// (existing, found by the caller), or nil. An existing one gets the next revision (MaxRevision of the old ones
// + 1, never lowered) and the deployment's annotations and minReadySeconds;
// when that needs a write it returns right after it, and the deployment's
// own revision follows on a later sync, as upstream.
func (c *Controller) getNewReplicaSet(ctx context.Context, d *appsv1.Deployment, existing *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet, create bool) (*appsv1.ReplicaSet, error) {
	newRevision := strconv.FormatInt(model.MaxRevision(oldRSs)+1, 10)

	if existing != nil {
		rs := existing.DeepCopy()
		annotated := model.SetNewReplicaSetAnnotations(d, rs, newRevision, true, model.RevisionHistoryLimitChars)
		if annotated || rs.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			rs.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			updated, err := c.env.Client.AppsV1().ReplicaSets(rs.Namespace).Update(ctx, rs, metav1.UpdateOptions{})
			if err != nil {
				return nil, fmt.Errorf("update revision of replica set %s/%s: %w", rs.Namespace, rs.Name, err)
			}
			return updated, nil
		}
		needsUpdate := model.SetDeploymentRevision(d, rs.Annotations[model.RevisionAnnotation])
		// A deployment that just gained a deadline starts its progress clock
		// at the first sight of its new ReplicaSet.
		if model.HasProgressDeadline(d) && model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing) == nil {
			model.SetDeploymentCondition(&d.Status, model.NewDeploymentCondition(appsv1.DeploymentProgressing,
				corev1.ConditionTrue, model.ReasonFoundNewReplicaSet, fmt.Sprintf("Found new replica set %q", rs.Name), c.env.Clock.Now()))
			needsUpdate = true
		}
		if needsUpdate {
			if err := c.updateStatus(ctx, d); err != nil {
				return nil, err
			}
		}
		return rs, nil
	}
	if !create {
		return nil, nil
	}
	return c.createNewReplicaSet(ctx, d, oldRSs, newRevision)
}

// createNewReplicaSet creates <deployment>-<pod-template-hash> sized by
// NewRSNewReplicas. A name taken by a ReplicaSet that is not this
// deployment's copy of its template is a hash collision: collisionCount goes
// up (which changes the hash) and the sync is retried.
func (c *Controller) createNewReplicaSet(ctx context.Context, d *appsv1.Deployment, oldRSs []*appsv1.ReplicaSet, newRevision string) (*appsv1.ReplicaSet, error) {
	template := *d.Spec.Template.DeepCopy()
	hash := model.PodTemplateHash(&template, d.Status.CollisionCount)
	template.Labels = withLabel(d.Spec.Template.Labels, model.PodTemplateHashLabel, hash)
	selector := d.Spec.Selector.DeepCopy()
	selector.MatchLabels = withLabel(selector.MatchLabels, model.PodTemplateHashLabel, hash)

	newRS := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, controllerKind)},
			Labels:          template.Labels,
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        new(int32),
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        selector,
			Template:        template,
		},
	}
	replicas, err := model.NewRSNewReplicas(d, append(oldRSs, newRS), newRS)
	if err != nil {
		return nil, err
	}
	*newRS.Spec.Replicas = replicas
	model.SetNewReplicaSetAnnotations(d, newRS, newRevision, false, model.RevisionHistoryLimitChars)

	alreadyExists := false
	created, err := c.env.Client.AppsV1().ReplicaSets(d.Namespace).Create(ctx, newRS, metav1.CreateOptions{})
	switch {
	case apierrors.IsAlreadyExists(err):
		alreadyExists = true
		rs, getErr := c.env.Listers.ReplicaSets.ReplicaSets(newRS.Namespace).Get(newRS.Name)
		if getErr != nil {
			return nil, fmt.Errorf("read existing replica set %s/%s: %w", newRS.Namespace, newRS.Name, getErr)
		}
		// Our own, created by an earlier sync the cache had not shown yet.
		if ref := metav1.GetControllerOfNoCopy(rs); ref != nil && ref.UID == d.UID && model.EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			created = rs
			break
		}
		if d.Status.CollisionCount == nil {
			d.Status.CollisionCount = new(int32)
		}
		*d.Status.CollisionCount++
		_, _ = c.env.Client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{})
		return nil, fmt.Errorf("create replica set %s/%s: name taken by another template (hash collision; collisionCount now %d, retrying): %w",
			newRS.Namespace, newRS.Name, *d.Status.CollisionCount, err)
	case apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
		// Every create will fail from now on; nothing to report.
		return nil, fmt.Errorf("create replica set %s/%s: %w", newRS.Namespace, newRS.Name, err)
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Name, err)
		if model.HasProgressDeadline(d) {
			model.SetDeploymentCondition(&d.Status, model.NewDeploymentCondition(appsv1.DeploymentProgressing,
				corev1.ConditionFalse, model.ReasonReplicaSetCreateError, msg, c.env.Clock.Now()))
			// The create error is the one worth reporting.
			_, _ = c.env.Client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{})
		}
		c.env.Events.Eventf(d, corev1.EventTypeWarning, model.EventReplicaSetCreateError, "%s", msg)
		return nil, fmt.Errorf("create replica set %s/%s: %w", newRS.Namespace, newRS.Name, err)
	}
	if !alreadyExists && replicas > 0 {
		c.env.Events.Eventf(d, corev1.EventTypeNormal, model.EventScalingReplicaSet, "Scaled up replica set %s from 0 to %d", created.Name, replicas)
	}
	needsUpdate := model.SetDeploymentRevision(d, newRevision)
	if !alreadyExists && model.HasProgressDeadline(d) {
		model.SetDeploymentCondition(&d.Status, model.NewDeploymentCondition(appsv1.DeploymentProgressing,
			corev1.ConditionTrue, model.ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", created.Name), c.env.Clock.Now()))
		needsUpdate = true
	}
	if needsUpdate {
		if err := c.updateStatus(ctx, d); err != nil {
			return created, err
		}
	}
	return created, nil
}

// withLabel returns a copy of labels with key set to value.
func withLabel(labels map[string]string, key, value string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	for k, v := range labels {
		out[k] = v
	}
	out[key] = value
	return out
}
