package statefulset

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"rollscope/engine/control"
	"rollscope/model"
)

// newRevision is the revision the set's template would be (newRevision in
// stateful_set_utils.go): the template patch, the template's labels plus the
// hash, the set's annotations, owned by the set.
func newRevision(set *appsv1.StatefulSet, revision int64, collisionCount *int32) (*appsv1.ControllerRevision, error) {
	patch, err := model.TemplatePatch(set)
	if err != nil {
		return nil, err
	}
	hash := model.RevisionHash(patch, collisionCount)
	rev := control.NewRevision(set, controllerKind, set.Spec.Template.Labels, patch, revision)
	rev.Name = model.RevisionName(set.Name, hash)
	rev.Labels[model.StatefulSetRevisionHashLabel] = hash
	return rev, nil
}

// revisions finds the current and update revisions (getStatefulSetRevisions):
// the update revision is the set's template as a revision — the newest one
// when it holds the same template, an older equal one brought forward with
// the next number (a rollback), or a new one.
func (c *Controller) revisions(ctx context.Context, set *appsv1.StatefulSet, revs []*appsv1.ControllerRevision) (current, update *appsv1.ControllerRevision, collisionCount int32, err error) {
	if set.Status.CollisionCount != nil {
		collisionCount = *set.Status.CollisionCount
	}
	update, err = newRevision(set, model.NextRevision(revs), &collisionCount)
	if err != nil {
		return nil, nil, collisionCount, err
	}
	var equal []*appsv1.ControllerRevision
	for _, r := range revs {
		if model.SameRevisionData(r, update) {
			equal = append(equal, r)
		}
	}
	switch {
	case len(equal) > 0 && model.SameRevisionData(revs[len(revs)-1], equal[len(equal)-1]):
		update = revs[len(revs)-1]
	case len(equal) > 0:
		bumped := equal[len(equal)-1].DeepCopy()
		bumped.Revision = update.Revision
		update, err = c.env.Client.AppsV1().ControllerRevisions(set.Namespace).Update(ctx, bumped, metav1.UpdateOptions{})
		if err != nil {
			return nil, nil, collisionCount, err
		}
	default:
		update, err = c.createRevision(ctx, set, update, &collisionCount)
		if err != nil {
			return nil, nil, collisionCount, err
		}
	}
	for _, r := range revs {
		if r.Name == set.Status.CurrentRevision {
			current = r
			break
		}
	}
	if current == nil {
		current = update
	}
	return current, update, collisionCount, nil
}

// createRevision creates rev, or finds it already there with the same data
// (a cache behind the API); a different revision under the name is a hash
// collision, which bumps the count and so the name.
func (c *Controller) createRevision(ctx context.Context, set *appsv1.StatefulSet, rev *appsv1.ControllerRevision, collisionCount *int32) (*appsv1.ControllerRevision, error) {
	api := c.env.Client.AppsV1().ControllerRevisions(set.Namespace)
	for {
		hash := model.RevisionHash(rev.Data.Raw, collisionCount)
		clone := rev.DeepCopy()
		clone.Name = model.RevisionName(set.Name, hash)
		clone.Labels[model.StatefulSetRevisionHashLabel] = hash
		created, err := api.Create(ctx, clone, metav1.CreateOptions{})
		if !apierrors.IsAlreadyExists(err) {
			return created, err
		}
		exists, err := api.Get(ctx, clone.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		if model.SameRevisionData(exists, clone) {
			return exists, nil
		}
		*collisionCount++
	}
}

// truncateHistory deletes the oldest revisions beyond revisionHistoryLimit
// that no pod, and neither the current nor the update revision, is at.
func (c *Controller) truncateHistory(ctx context.Context, set *appsv1.StatefulSet, pods []*corev1.Pod, revs []*appsv1.ControllerRevision, current, update *appsv1.ControllerRevision) error {
	live := map[string]bool{}
	if current != nil {
		live[current.Name] = true
	}
	if update != nil {
		live[update.Name] = true
	}
	for _, p := range pods {
		live[p.Labels[model.RevisionHashLabel]] = true
	}
	var history []*appsv1.ControllerRevision
	for _, r := range revs {
		if !live[r.Name] {
			history = append(history, r)
		}
	}
	limit := int(ptr.Deref(set.Spec.RevisionHistoryLimit, 10))
	if limit < 0 || len(history) <= limit {
		return nil
	}
	for _, r := range history[:len(history)-limit] {
		err := c.env.Client.AppsV1().ControllerRevisions(r.Namespace).Delete(ctx, r.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// applyRevision is the set as it was at rev: its template replaced by the
// revision's.
func applyRevision(set *appsv1.StatefulSet, rev *appsv1.ControllerRevision) (*appsv1.StatefulSet, error) {
	t, err := model.RevisionTemplate(rev)
	if err != nil {
		return nil, err
	}
	clone := set.DeepCopy()
	clone.Spec.Template = t
	return clone, nil
}
