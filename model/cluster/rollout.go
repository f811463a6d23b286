package cluster

import (
	"cmp"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
)

// Rollout is everything the screen shows about one deployment, or false when
// the deployment is not in the picture. now is the cluster's clock (virtual
// in the embedded cluster). The view reads the status the controllers
// recorded against that clock and recomputes nothing from it, so the figures
// on screen are the ones kubectl would print; now is taken so that every view
// the screen renders is asked about the same moment.
func (c *Cluster) Rollout(namespace, name string, now time.Time) (RolloutView, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d := c.deployments[objectKey(namespace, name)]
	if d == nil {
		return RolloutView{}, false
	}
	rss := c.ownedReplicaSets(d)
	newRS := model.FindNewReplicaSet(d, rss)
	status, done := rolloutStatus(d)
	v := RolloutView{
		Namespace: d.Namespace, Name: d.Name,
		Generation:              d.Generation,
		Observed:                d.Status.ObservedGeneration >= d.Generation,
		Strategy:                string(d.Spec.Strategy.Type),
		Replicas:                model.DesiredReplicas(d),
		MaxSurge:                model.MaxSurge(d),
		MaxUnavailable:          model.MaxUnavailable(d),
		MinReadySeconds:         d.Spec.MinReadySeconds,
		ProgressDeadlineSeconds: deref(d.Spec.ProgressDeadlineSeconds),
		Paused:                  d.Spec.Paused,
		Revision:                revisionOrZero(d),
		Progressing:             condition(d, appsv1.DeploymentProgressing),
		Available:               condition(d, appsv1.DeploymentAvailable),
		Status:                  status,
		Done:                    done,
		Failed:                  failed(d),
		History:                 historyRows(d, rss, newRS),
		Pending:                 pendingChange(d, rss, newRS),
	}
	if ms, mu := model.RollingParams(d); model.IsRollingUpdate(d) {
		v.MaxSurgeSpec, v.MaxUnavailableSpec = intOrStringSpec(ms), intOrStringSpec(mu)
	}
	v.Surge, v.Unavailable = model.RolloutHeadroom(d, rss)
	c.canaryView(&v, d, newRS, now)
	if v.Canary == nil {
		// A canary's own line says what holds it; the blocker would read the
		// hold's minReadySeconds as the reason.
		v.Blocker = c.blocker(d, rss, newRS, now)
	}
	for _, rs := range rss {
		v.ReplicaSets = append(v.ReplicaSets, c.replicaSetRow(rs, newRS, done))
	}
	slices.SortFunc(v.ReplicaSets, func(a, b ReplicaSetRow) int {
		return cmp.Or(cmp.Compare(b.Revision, a.Revision), b.Created.Compare(a.Created), strings.Compare(a.Name, b.Name))
	})
	return v, true
}

// ownedReplicaSets are the ReplicaSets whose controller reference names d,
// as kubectl selects them: by the owner's UID, not by label selector.
func (c *Cluster) ownedReplicaSets(d *appsv1.Deployment) []*appsv1.ReplicaSet {
	var rss []*appsv1.ReplicaSet
	for _, key := range c.replicaSetsByOwner.sorted(d.UID) {
		if rs := c.replicaSets[key]; rs != nil && rs.Namespace == d.Namespace {
			rss = append(rss, rs)
		}
	}
	return rss
}

// replicaSetRow is rs with its pods, by name. The ReplicaSet running the
// current template is the new one while the rollout runs and the stable one
// once it is done.
func (c *Cluster) replicaSetRow(rs, newRS *appsv1.ReplicaSet, done bool) ReplicaSetRow {
	role := RoleOld
	if newRS != nil && model.SameReplicaSet(rs, newRS) {
		role = RoleNew
		if done {
			role = RoleStable
		}
	}
	row := ReplicaSetRow{
		Name:      rs.Name,
		Hash:      rs.Labels[model.PodTemplateHashLabel],
		Revision:  revisionOrZero(rs),
		Role:      role,
		Images:    images(&rs.Spec.Template),
		Desired:   model.SpecReplicas(rs),
		Current:   rs.Status.Replicas,
		Ready:     rs.Status.ReadyReplicas,
		Available: rs.Status.AvailableReplicas,
		Created:   rs.CreationTimestamp.Time,
	}
	row.Pods = c.podRowsOf(rs.UID, rs.Namespace)
	return row
}

// rolloutStatus is kubectl's sentence without its newline; kubectl's error
// (a missed progress deadline) is the sentence when there is one.
// failed reports whether kubectl rollout status would exit 1: the rollout
// exceeded its progress deadline.
func failed(d *appsv1.Deployment) bool {
	_, _, err := model.RolloutStatus(d, 0)
	return err != nil
}

func rolloutStatus(d *appsv1.Deployment) (string, bool) {
	msg, done, err := model.RolloutStatus(d, 0)
	if err != nil {
		return err.Error(), false
	}
	return strings.TrimSuffix(msg, "\n"), done
}

func condition(d *appsv1.Deployment, t appsv1.DeploymentConditionType) Condition {
	c := model.GetDeploymentCondition(d.Status, t)
	if c == nil {
		return Condition{}
	}
	return Condition{Status: string(c.Status), Reason: c.Reason, Message: c.Message}
}

// revisionOrZero is the object's revision; one that does not parse shows as
// 0, as if it had none, rather than hiding the object.
func revisionOrZero(obj metav1.Object) int64 {
	n, _ := model.Revision(obj)
	return n
}

// intOrStringSpec is a maxSurge or maxUnavailable as the user wrote it, ""
// when unset.
func intOrStringSpec(v *intstr.IntOrString) string {
	if v == nil {
		return ""
	}
	return v.String()
}

// images lists the template's container images in order.
func images(t *corev1.PodTemplateSpec) []string {
	out := make([]string, 0, len(t.Spec.Containers))
	for _, ct := range t.Spec.Containers {
		out = append(out, ct.Image)
	}
	return out
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// AbortTarget is the revision an abort of v's rollout goes back to, read
// from the view as the engine reads it from the API (PickAbortTarget over
// the old ReplicaSets); ok is false when there is no earlier revision.
func AbortTarget(v RolloutView) (revision int64, ok bool) {
	var cs []model.AbortCandidate
	for _, rs := range v.ReplicaSets {
		if rs.Role == RoleOld {
			cs = append(cs, model.AbortCandidate{Revision: rs.Revision, Available: rs.Available})
		}
	}
	i := model.PickAbortTarget(cs)
	if i < 0 {
		return 0, false
	}
	return cs[i].Revision, true
}
