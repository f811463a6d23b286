package daemonset

import (
	"context"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"rollscope/engine/control"
	"rollscope/model"
)

// constructHistory finds the revision of the DaemonSet's template (making it
// when there is none, renumbering it above every old one when it was rolled
// back to) and the old ones.
func (c *Controller) constructHistory(ctx context.Context, ds *appsv1.DaemonSet) (cur *appsv1.ControllerRevision, old []*appsv1.ControllerRevision, err error) {
	patch, err := model.TemplatePatch(ds)
	if err != nil {
		return nil, nil, err
	}
	var current []*appsv1.ControllerRevision
	api := c.env.Client.AppsV1().ControllerRevisions(ds.Namespace)
	for _, r := range c.env.Listers.OwnedRevisions(ds) {
		if _, ok := r.Labels[model.RevisionHashLabel]; !ok {
			// Revisions made before the hash label existed get their name.
			next := r.DeepCopy()
			if next.Labels == nil {
				next.Labels = map[string]string{}
			}
			next.Labels[model.RevisionHashLabel] = next.Name
			if r, err = api.Update(ctx, next, metav1.UpdateOptions{}); err != nil {
				return nil, nil, err
			}
		}
		if string(r.Data.Raw) == string(patch) {
			current = append(current, r)
		} else {
			old = append(old, r)
		}
	}
	next := int64(1)
	for _, r := range old {
		next = max(next, r.Revision+1)
	}
	if len(current) == 0 {
		cur, err = c.snapshot(ctx, ds, patch, next)
		return cur, old, err
	}
	// Duplicates of the current revision (after a collision) go; the
	// newest stays.
	sort.SliceStable(current, func(i, j int) bool { return current[i].Revision > current[j].Revision })
	cur = current[0]
	for _, dup := range current[1:] {
		if err := api.Delete(ctx, dup.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return nil, nil, err
		}
	}
	if cur.Revision < next {
		bumped := cur.DeepCopy()
		bumped.Revision = next
		if cur, err = api.Update(ctx, bumped, metav1.UpdateOptions{}); err != nil {
			return nil, nil, err
		}
	}
	return cur, old, nil
}

// snapshot creates the revision of the DaemonSet's template: named
// <name>-<pod template hash>, labelled with the template's labels and the
// hash. A different revision under that name is a collision: the count goes
// up on the DaemonSet's status and the next sync tries another name.
func (c *Controller) snapshot(ctx context.Context, ds *appsv1.DaemonSet, patch []byte, revision int64) (*appsv1.ControllerRevision, error) {
	hash := model.PodTemplateHash(&ds.Spec.Template, ds.Status.CollisionCount)
	rev := control.NewRevision(ds, controllerKind, ds.Spec.Template.Labels, patch, revision)
	rev.Name = ds.Name + "-" + hash
	rev.Labels[model.RevisionHashLabel] = hash
	api := c.env.Client.AppsV1().ControllerRevisions(ds.Namespace)
	created, err := api.Create(ctx, rev, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		return created, err
	}
	exists, gerr := api.Get(ctx, rev.Name, metav1.GetOptions{})
	if gerr != nil {
		return nil, gerr
	}
	if metav1.IsControlledBy(exists, ds) && string(exists.Data.Raw) == string(patch) {
		return exists, nil
	}
	fresh, gerr := c.env.Client.AppsV1().DaemonSets(ds.Namespace).Get(ctx, ds.Name, metav1.GetOptions{})
	if gerr != nil {
		return nil, gerr
	}
	fresh.Status.CollisionCount = ptr.To(ptr.Deref(fresh.Status.CollisionCount, 0) + 1)
	if _, uerr := c.env.Client.AppsV1().DaemonSets(ds.Namespace).UpdateStatus(ctx, fresh, metav1.UpdateOptions{}); uerr != nil {
		return nil, uerr
	}
	return nil, err
}

// cleanupHistory deletes the oldest old revisions beyond
// revisionHistoryLimit that no daemon pod runs.
func (c *Controller) cleanupHistory(ctx context.Context, ds *appsv1.DaemonSet, byNode map[string][]podRef, old []*appsv1.ControllerRevision) error {
	kill := len(old) - int(ptr.Deref(ds.Spec.RevisionHistoryLimit, 10))
	if kill <= 0 {
		return nil
	}
	live := map[string]bool{}
	for _, pods := range byNode {
		for _, p := range pods {
			if h := p.Labels[model.RevisionHashLabel]; h != "" {
				live[h] = true
			}
		}
	}
	sort.SliceStable(old, func(i, j int) bool { return old[i].Revision < old[j].Revision })
	for _, r := range old {
		if kill <= 0 {
			break
		}
		if live[r.Labels[model.RevisionHashLabel]] {
			continue
		}
		err := c.env.Client.AppsV1().ControllerRevisions(ds.Namespace).Delete(ctx, r.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		kill--
	}
	return nil
}
