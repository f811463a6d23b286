package deployment

import (
	"context"
	"fmt"
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/model"
)

// Sync implements control.Controller: it reconciles one deployment, in the
// order upstream's syncDeployment does.
func (c *Controller) Sync(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return fmt.Errorf("sync deployment: bad key %q: %w", key, err)
	}
	cached, err := c.env.Listers.Deployments.Deployments(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sync deployment %s: %w", key, err)
	}
	d := cached.DeepCopy()

	if reflect.DeepEqual(d.Spec.Selector, &metav1.LabelSelector{}) {
		c.env.Events.Eventf(d, corev1.EventTypeWarning, model.EventSelectingAll, "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			// Upstream ignores a failure here too: the next change retries.
			_, _ = c.env.Client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{})
		}
		return nil
	}
	if d.Spec.Selector == nil {
		return fmt.Errorf("sync deployment %s: spec.selector is missing; the API server requires one, so set it", key)
	}
	selector, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return fmt.Errorf("deployment %s/%s has invalid label selector: %w", d.Namespace, d.Name, err)
	}

	rsList, err := c.claimReplicaSets(ctx, d, selector)
	if err != nil {
		return err
	}
	if d.DeletionTimestamp != nil {
		return c.syncStatusOnly(ctx, d, rsList)
	}
	if err := c.checkPausedConditions(ctx, d); err != nil {
		return err
	}
	if d.Spec.Paused {
		return c.sync(ctx, d, rsList)
	}
	// The legacy rollback request wins over everything but pausing.
	if _, ok := rollbackTo(d); ok {
		return c.rollback(ctx, d, rsList)
	}
	scaling, err := c.isScalingEvent(ctx, d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		return c.sync(ctx, d, rsList)
	}
	switch d.Spec.Strategy.Type {
	case appsv1.RecreateDeploymentStrategyType:
		return c.rolloutRecreate(ctx, d, rsList, c.podsByReplicaSet(d, selector, rsList))
	case appsv1.RollingUpdateDeploymentStrategyType:
		return c.rolloutRolling(ctx, d, rsList)
	}
	return fmt.Errorf("unexpected deployment strategy type: %s", d.Spec.Strategy.Type)
}

// sync handles a paused deployment or a scaling event: it resizes the
// existing ReplicaSets proportionally and never creates one.
func (c *Controller) sync(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	if err := c.scale(ctx, d, newRS, oldRSs); err != nil {
		return err
	}
	if _, rollingBack := rollbackTo(d); d.Spec.Paused && !rollingBack {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncDeploymentStatus(ctx, append(oldRSs, newRS), newRS, d)
}

// syncStatusOnly refreshes the status of a deployment being deleted.
func (c *Controller) syncStatusOnly(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	return c.syncDeploymentStatus(ctx, append(oldRSs, newRS), newRS, d)
}

// syncDeploymentStatus writes the counts the ReplicaSets add up to, leaving
// Progressing alone (paused deployments and scaling events make no progress).
func (c *Controller) syncDeploymentStatus(ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) error {
	s := model.CalculateStatus(allRSs, newRS, d, c.env.Clock.Now())
	if reflect.DeepEqual(d.Status, s) {
		return nil
	}
	d.Status = s
	return c.updateStatus(ctx, d)
}

// checkPausedConditions marks Progressing Unknown when the deployment is
// paused or resumed, so that time spent paused never counts against the
// progress deadline. A reported timeout is never overwritten.
func (c *Controller) checkPausedConditions(ctx context.Context, d *appsv1.Deployment) error {
	if !model.HasProgressDeadline(d) {
		return nil
	}
	cond := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing)
	if cond != nil && cond.Reason == model.ReasonProgressDeadlineExceeded {
		return nil
	}
	pausedShown := cond != nil && cond.Reason == model.ReasonDeploymentPaused
	now := c.env.Clock.Now()
	switch {
	case d.Spec.Paused && !pausedShown:
		model.SetDeploymentCondition(&d.Status, model.NewDeploymentCondition(appsv1.DeploymentProgressing,
			corev1.ConditionUnknown, model.ReasonDeploymentPaused, "Deployment is paused", now))
	case !d.Spec.Paused && pausedShown:
		model.SetDeploymentCondition(&d.Status, model.NewDeploymentCondition(appsv1.DeploymentProgressing,
			corev1.ConditionUnknown, model.ReasonDeploymentResumed, "Deployment is resumed", now))
	default:
		return nil
	}
	return c.updateStatus(ctx, d)
}

// updateStatus writes d's status. Like upstream it keeps working with its
// own copy afterwards, so a later write in the same sync may meet a conflict
// and be retried.
func (c *Controller) updateStatus(ctx context.Context, d *appsv1.Deployment) error {
	if _, err := c.env.Client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update status of deployment %s/%s: %w", d.Namespace, d.Name, err)
	}
	return nil
}
