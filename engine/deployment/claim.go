package deployment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/control"
	"rollscope/model"
)

// claimReplicaSets returns the ReplicaSets the deployment owns, as upstream's
// ControllerRefManager decides: it keeps its own that still match the
// selector, releases its own that no longer do, and adopts matching orphans.
// The result is sorted oldest first, the order every later step walks in.
func (c *Controller) claimReplicaSets(ctx context.Context, d *appsv1.Deployment, selector labels.Selector) ([]*appsv1.ReplicaSet, error) {
	candidates := c.ownedReplicaSets(d, labels.Everything())
	orphans, err := c.env.Listers.ReplicaSets.ReplicaSets(d.Namespace).List(selector)
	if err != nil {
		return nil, fmt.Errorf("list replica sets of deployment %s/%s: %w", d.Namespace, d.Name, err)
	}
	for _, rs := range orphans {
		if metav1.GetControllerOfNoCopy(rs) == nil {
			candidates = append(candidates, rs)
		}
	}
	model.SortByCreationTimestamp(candidates)

	var claimed []*appsv1.ReplicaSet
	var errs []error
	adoptable := c.adoptionCheck(ctx, d)
	for _, rs := range candidates {
		matches := selector.Matches(labels.Set(rs.Labels))
		if metav1.GetControllerOfNoCopy(rs) != nil {
			if matches {
				claimed = append(claimed, rs)
				continue
			}
			if d.DeletionTimestamp == nil {
				if err := c.release(ctx, d, rs); err != nil {
					errs = append(errs, err)
				}
			}
			continue
		}
		if d.DeletionTimestamp != nil || !matches || rs.DeletionTimestamp != nil {
			continue
		}
		if err := adoptable(); err != nil {
			errs = append(errs, fmt.Errorf("can't adopt ReplicaSet %s/%s (%s): %w", rs.Namespace, rs.Name, rs.UID, err))
			continue
		}
		if err := c.adopt(ctx, d, rs); err != nil {
			if !apierrors.IsNotFound(err) {
				errs = append(errs, err)
			}
			continue
		}
		claimed = append(claimed, rs)
	}
	return claimed, errors.Join(errs...)
}

// adoptionCheck returns a check, run at most once, that the deployment is
// not being deleted right now: the cache may be behind, and a deployment on
// its way out must not adopt anything.
func (c *Controller) adoptionCheck(ctx context.Context, d *appsv1.Deployment) func() error {
	var done bool
	var result error
	return func() error {
		if done {
			return result
		}
		done = true
		fresh, err := c.env.Client.AppsV1().Deployments(d.Namespace).Get(ctx, d.Name, metav1.GetOptions{})
		switch {
		case err != nil:
			result = fmt.Errorf("can't recheck DeletionTimestamp: %w", err)
		case fresh.UID != d.UID:
			result = fmt.Errorf("can't recheck DeletionTimestamp: original Deployment %s/%s is gone: got uid %s, wanted %s", d.Namespace, d.Name, fresh.UID, d.UID)
		case fresh.DeletionTimestamp != nil:
			result = fmt.Errorf("%s/%s has just been deleted at %v", fresh.Namespace, fresh.Name, fresh.DeletionTimestamp)
		}
		return result
	}
}

// adopt makes the deployment the ReplicaSet's controller with upstream's
// strategic-merge patch; the UID guards against a recreated namesake.
func (c *Controller) adopt(ctx context.Context, d *appsv1.Deployment, rs *appsv1.ReplicaSet) error {
	type meta struct {
		OwnerReferences []metav1.OwnerReference `json:"ownerReferences"`
		UID             types.UID               `json:"uid"`
	}
	patch, err := json.Marshal(struct {
		Metadata meta `json:"metadata"`
	}{meta{OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, controllerKind)}, UID: rs.UID}})
	if err != nil {
		return fmt.Errorf("encode adoption of replica set %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	_, err = c.env.Client.AppsV1().ReplicaSets(rs.Namespace).Patch(ctx, rs.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("adopt replica set %s/%s into deployment %s: %w", rs.Namespace, rs.Name, d.Name, err)
	}
	return nil
}

// release removes the deployment's owner reference from a ReplicaSet that no
// longer matches its selector.
func (c *Controller) release(ctx context.Context, d *appsv1.Deployment, rs *appsv1.ReplicaSet) error {
	type meta struct {
		UID             types.UID           `json:"uid"`
		OwnerReferences []map[string]string `json:"ownerReferences"`
	}
	patch, err := json.Marshal(struct {
		Metadata meta `json:"metadata"`
	}{meta{UID: rs.UID, OwnerReferences: []map[string]string{{"$patch": "delete", "uid": string(d.UID)}}}})
	if err != nil {
		return fmt.Errorf("encode release of replica set %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	_, err = c.env.Client.AppsV1().ReplicaSets(rs.Namespace).Patch(ctx, rs.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
	// Gone, or no longer ours (Invalid): nothing left to release.
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsInvalid(err) {
		return fmt.Errorf("release replica set %s/%s from deployment %s: %w", rs.Namespace, rs.Name, d.Name, err)
	}
	return nil
}

// ownedReplicaSets lists, from the controller index, the ReplicaSets in the
// deployment's namespace it controls whose labels match selector.
func (c *Controller) ownedReplicaSets(d *appsv1.Deployment, selector labels.Selector) []*appsv1.ReplicaSet {
	objs, err := c.env.Listers.ReplicaSetIndex.ByIndex(control.IndexByController, string(d.UID))
	if err != nil {
		return nil
	}
	var out []*appsv1.ReplicaSet
	for _, o := range objs {
		if rs, ok := o.(*appsv1.ReplicaSet); ok && rs.Namespace == d.Namespace && selector.Matches(labels.Set(rs.Labels)) {
			out = append(out, rs)
		}
	}
	return out
}

// podsByReplicaSet groups, by ReplicaSet UID, the pods matching the
// deployment's selector that each of rss controls (every phase included).
func (c *Controller) podsByReplicaSet(d *appsv1.Deployment, selector labels.Selector, rss []*appsv1.ReplicaSet) map[types.UID][]*corev1.Pod {
	out := make(map[types.UID][]*corev1.Pod, len(rss))
	for _, rs := range rss {
		out[rs.UID] = []*corev1.Pod{}
		objs, err := c.env.Listers.PodIndex.ByIndex(control.IndexByController, string(rs.UID))
		if err != nil {
			continue
		}
		for _, o := range objs {
			if p, ok := o.(*corev1.Pod); ok && p.Namespace == d.Namespace && selector.Matches(labels.Set(p.Labels)) {
				out[rs.UID] = append(out[rs.UID], p)
			}
		}
	}
	return out
}
