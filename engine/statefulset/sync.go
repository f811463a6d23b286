package statefulset

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
)

// Sync implements control.Controller: one pass of upstream's sync for the
// set at key.
func (c *Controller) Sync(ctx context.Context, key string) error {
	if c.env.Client == nil || c.env.Listers.StatefulSets == nil {
		return fmt.Errorf("statefulset controller: no client or listers")
	}
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	set, err := c.env.Listers.StatefulSets.StatefulSets(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	sel, err := metav1.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil {
		// Upstream records nothing and waits for a valid selector.
		return nil
	}
	pods := c.ownedPods(set, sel)
	revs := c.ownedRevisions(set)
	status, err := c.updateStatefulSet(ctx, set.DeepCopy(), pods, revs)
	if err != nil {
		return err
	}
	if set.Spec.MinReadySeconds > 0 && status != nil && status.AvailableReplicas != model.StatefulSetReplicas(set) {
		if q := c.q(); q != nil {
			q.AddAfter(key, time.Duration(set.Spec.MinReadySeconds)*time.Second)
		}
	}
	return nil
}

// ownedPods are the pods the set controls that its selector still selects
// and whose name makes them its members.
func (c *Controller) ownedPods(set *appsv1.StatefulSet, sel labels.Selector) []*corev1.Pod {
	objs, _ := c.env.Listers.PodIndex.ByIndex(control.IndexByController, string(set.UID))
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		p, ok := o.(*corev1.Pod)
		if !ok || p.Namespace != set.Namespace || !sel.Matches(labels.Set(p.Labels)) {
			continue
		}
		if parent, _ := model.StatefulPodOrdinal(p.Name); parent != set.Name {
			continue
		}
		pods = append(pods, p)
	}
	return pods
}

// ownedRevisions are the set's ControllerRevisions, oldest first.
func (c *Controller) ownedRevisions(set *appsv1.StatefulSet) []*appsv1.ControllerRevision {
	var revs []*appsv1.ControllerRevision
	if c.env.Listers.RevisionIndex != nil {
		objs, _ := c.env.Listers.RevisionIndex.ByIndex(control.IndexByController, string(set.UID))
		for _, o := range objs {
			if r, ok := o.(*appsv1.ControllerRevision); ok && r.Namespace == set.Namespace {
				revs = append(revs, r)
			}
		}
	}
	model.SortRevisions(revs)
	return revs
}
