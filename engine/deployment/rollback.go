package deployment

import (
	"context"
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// rollbackTo reads the legacy rollback request (extensions/v1beta1
// spec.rollbackTo, kept as an annotation). An unreadable one is ignored.
func rollbackTo(d *appsv1.Deployment) (revision int64, ok bool) {
	v := d.Annotations[model.RollbackToAnnotation]
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// rollback serves a rollback request: it puts the template (and annotations)
// of the requested revision — 0 meaning the one before the latest — back on
// the deployment and clears the request. The rollout itself follows on the
// next sync like any template change.
func (c *Controller) rollback(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)
	revision, _ := rollbackTo(d)
	if revision == 0 {
		if revision = model.LastRevision(allRSs); revision == 0 {
			c.env.Events.Eventf(d, corev1.EventTypeWarning, model.EventDeploymentRollbackRevisionNotFound, "Unable to find last revision.")
			return c.clearRollbackTo(ctx, d)
		}
	}
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		v, err := model.Revision(rs)
		if err != nil || v != revision {
			continue
		}
		if model.EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			c.env.Events.Eventf(d, corev1.EventTypeWarning, model.EventDeploymentRollbackTemplateUnchanged,
				"The rollback revision contains the same template as current deployment %q", d.Name)
			return c.clearRollbackTo(ctx, d)
		}
		d.Spec.Template = model.TemplateFromReplicaSet(rs)
		// The annotations go back too, or the current change-cause would be
		// copied onto the restored ReplicaSet.
		d.Annotations = model.DeploymentAnnotationsFrom(d, rs)
		if err := c.clearRollbackTo(ctx, d); err != nil {
			return err
		}
		c.env.Events.Eventf(d, corev1.EventTypeNormal, model.EventDeploymentRollback, "Rolled back deployment %q to revision %d", d.Name, revision)
		return nil
	}
	c.env.Events.Eventf(d, corev1.EventTypeWarning, model.EventDeploymentRollbackRevisionNotFound, "Unable to find the revision to rollback to.")
	return c.clearRollbackTo(ctx, d)
}

// clearRollbackTo drops the rollback request and writes the deployment.
func (c *Controller) clearRollbackTo(ctx context.Context, d *appsv1.Deployment) error {
	delete(d.Annotations, model.RollbackToAnnotation)
	if _, err := c.env.Client.AppsV1().Deployments(d.Namespace).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update deployment %s/%s after rollback: %w", d.Namespace, d.Name, err)
	}
	return nil
}
