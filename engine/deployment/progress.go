package deployment

import (
	"context"
	"reflect"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// syncRolloutStatus writes the status of a deployment that is rolling:
// counts, Available, Progressing against the deadline, ReplicaFailure. When
// nothing changed it arranges to look again when the deadline would pass.
func (c *Controller) syncRolloutStatus(ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) error {
	s := model.RolloutProgressStatus(allRSs, newRS, d, c.env.Clock.Now())
	if reflect.DeepEqual(d.Status, s) {
		c.requeueStuckDeployment(d, s)
		return nil
	}
	d.Status = s
	return c.updateStatus(ctx, d)
}

// requeueStuckDeployment queues the deployment for when its progress
// deadline passes (plus a second against clock skew), or right away (rate
// limited) when that is under a second off. It returns the wait, 0 for
// "now" and -1 when no check is due.
func (c *Controller) requeueStuckDeployment(d *appsv1.Deployment, s appsv1.DeploymentStatus) time.Duration {
	after, ok := model.ProgressCheckAfter(c.env.Clock.Now(), d, &s)
	if !ok {
		return -1
	}
	if after < time.Second {
		c.enqueueAfter(d, rateLimitedRequeue)
		return 0
	}
	c.enqueueAfter(d, after+time.Second)
	return after
}
