package noderoll

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"rollscope/model"
)

// A failing validation's deadline is kept on one node of the roll
// (model.RollFailsAtAnnotation), as a drain keeps its start on its node:
// the console shows when the roll fails unless the cluster validates, and
// a roll restarted meanwhile keeps the deadline instead of starting the
// timeout again.

// failsAt is the deadline a node of the roll carries, zero when none does.
func failsAt(r *roll) time.Time {
	for _, n := range r.inRoll {
		if at, err := time.Parse(time.RFC3339Nano, n.Annotations[model.RollFailsAtAnnotation]); err == nil {
			return at
		}
	}
	return time.Time{}
}

// recordDeadline writes at on a node of the roll, unless this controller
// wrote it on a node still in the roll or the cache shows one carrying it.
// It picks a node the roll has not started on, so that a drain that ends
// meanwhile does not take the deadline away with its node.
func (c *Controller) recordDeadline(ctx context.Context, r *roll, m *memo, at time.Time) error {
	if failsAt(r).Equal(at) || (m.deadlineOn != "" && slices.ContainsFunc(r.inRoll, func(n *corev1.Node) bool { return n.Name == m.deadlineOn })) {
		return nil
	}
	holder := r.inRoll[0]
	for _, n := range r.inRoll {
		if n.Annotations[model.RollNodeAnnotation] == "" && !model.NodeDetached(n) {
			holder = n
			break
		}
	}
	value := at.UTC().Format(time.RFC3339Nano)
	err := annotate(ctx, c.env.Client, holder.Name, func(ann map[string]string) bool {
		if ann[model.RollFailsAtAnnotation] == value {
			return false
		}
		ann[model.RollFailsAtAnnotation] = value
		return true
	})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("node roll %s: record when the roll fails (it is retried): %w", r.spec.Group, err)
	}
	m.deadlineOn, m.wroteDeadline = holder.Name, true
	return nil
}

// clearDeadline removes the deadline from the node this controller wrote
// it on — on a live cluster its cache may not show it yet — and from any
// other node of the roll the cache shows carrying one: the cluster
// validated. The sync goes on with the nodes as stored, in the roll and in
// each of lists, so that its next write to the same node does not conflict
// with this one.
func (c *Controller) clearDeadline(ctx context.Context, r *roll, m *memo, lists ...[]*corev1.Node) error {
	var carriers []string
	if m.deadlineOn != "" {
		carriers = append(carriers, m.deadlineOn)
	}
	for _, n := range r.inRoll {
		if _, ok := n.Annotations[model.RollFailsAtAnnotation]; ok && n.Name != m.deadlineOn {
			carriers = append(carriers, n.Name)
		}
	}
	for _, name := range carriers {
		m.wroteDeadline = true
		stored, err := annotated(ctx, c.env.Client, name, dropDeadline)
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("node roll %s: clear the validation deadline (it is retried): %w", r.spec.Group, err)
		}
		if stored == nil {
			continue
		}
		for _, l := range append(lists, r.inRoll, r.nodes) {
			for i := range l {
				if l[i].Name == stored.Name {
					l[i] = stored
				}
			}
		}
	}
	m.deadlineOn = ""
	return nil
}

// deadlineOnly reports whether the roll's deadline is all that changed
// between two versions of a node: the roll wrote it, and it is no news to
// the roll (a sync for it would only add a timer of its own).
func deadlineOnly(oldObj, newObj any) bool {
	o, ok1 := oldObj.(*corev1.Node)
	n, ok2 := newObj.(*corev1.Node)
	if !ok1 || !ok2 || o.Annotations[model.RollFailsAtAnnotation] == n.Annotations[model.RollFailsAtAnnotation] {
		return false
	}
	a, b := o.DeepCopy(), n.DeepCopy()
	delete(a.Annotations, model.RollFailsAtAnnotation)
	delete(b.Annotations, model.RollFailsAtAnnotation)
	a.ResourceVersion, a.ManagedFields, b.ManagedFields = b.ResourceVersion, nil, nil
	return equality.Semantic.DeepEqual(a, b)
}

// dropDeadline removes the deadline from a node's annotations.
func dropDeadline(ann map[string]string) bool {
	if _, ok := ann[model.RollFailsAtAnnotation]; !ok {
		return false
	}
	delete(ann, model.RollFailsAtAnnotation)
	return true
}
