package statefulset

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/control"
	"rollscope/model"
)

// Sync implements control.Controller: one pass of upstream's sync for the
// set at key.
func (c *Controller) Sync(ctx context.Context, key string) error {
	if c.env.Client == nil || c.sets == nil {
		return fmt.Errorf("statefulset controller: no client or listers")
	}
	set, found, err := control.Lookup(key, c.get)
	if !found {
		return err
	}
	sel, err := metav1.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil {
		// Upstream records nothing and waits for a valid selector.
		return nil
	}
	pods := c.ownedPods(set, sel)
	revs := c.env.Listers.OwnedRevisions(set)
	status, err := c.updateStatefulSet(ctx, set.DeepCopy(), pods, revs)
	if err != nil {
		return err
	}
	if set.Spec.MinReadySeconds > 0 && status != nil && status.AvailableReplicas != model.StatefulSetReplicas(set) {
		c.keys.AddAfter(key, time.Duration(set.Spec.MinReadySeconds)*time.Second)
	}
	return nil
}

// ownedPods are the pods the set controls that its selector still selects
// and whose name makes them its members.
func (c *Controller) ownedPods(set *appsv1.StatefulSet, sel labels.Selector) []*corev1.Pod {
	owned := c.env.Listers.OwnedPods(set, sel)
	pods := owned[:0]
	for _, p := range owned {
		if parent, _ := model.StatefulPodOrdinal(p.Name); parent == set.Name {
			pods = append(pods, p)
		}
	}
	return pods
}
