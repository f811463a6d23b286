package nodegroup

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// syncNode boots one of the groups' nodes: NotReady and tainted for the
// group's BootTime, then Ready with the not-ready taint removed.
func (c *Controller) syncNode(ctx context.Context, name string) error {
	node, err := c.env.Listers.Nodes.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("node group: read node %s from the cache: %w", name, err)
	}
	pos, ok := c.group(GroupOf(node))
	if !ok {
		return nil
	}
	g := &c.groups[pos]
	c.seen(g.Name, name)
	now := c.env.Clock.Now()
	ready := readyCondition(node)

	switch {
	case ready == nil:
		// The status never made it (a real API server drops it on create):
		// post it, booting since the node was created.
		since := node.CreationTimestamp.Time
		if since.IsZero() {
			since = now
		}
		updated := node.DeepCopy()
		updated.Status = nodeStatus(g, node, pos, max(nodeIndex(g.Name, name), 0), node.Annotations[model.NodeSpecAnnotation], since, false)
		if _, err := c.env.Client.CoreV1().Nodes().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("node group %s: post the status of node %s (it is retried): %w", g.Name, name, err)
		}
		c.requeue(name, since.Add(g.BootTime).Sub(now))
		return nil

	case ready.Status != corev1.ConditionTrue:
		readyAt := now
		if ready.Reason == reasonNotReady {
			readyAt = ready.LastTransitionTime.Add(g.BootTime)
		}
		if readyAt.After(now) {
			if !hasNotReadyTaint(node) {
				return c.setNotReadyTaint(ctx, g, node, true)
			}
			c.requeue(name, readyAt.Sub(now))
			return nil
		}
		updated := node.DeepCopy()
		at := metav1.NewTime(now)
		for i := range updated.Status.Conditions {
			cond := &updated.Status.Conditions[i]
			cond.LastHeartbeatTime = at
			if cond.Type == corev1.NodeReady {
				cond.Status, cond.Reason, cond.Message, cond.LastTransitionTime = corev1.ConditionTrue, reasonReady, messageReady, at
			}
		}
		posted, err := c.env.Client.CoreV1().Nodes().UpdateStatus(ctx, updated, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("node group %s: mark node %s Ready (it is retried): %w", g.Name, name, err)
		}
		if err := c.setNotReadyTaint(ctx, g, posted, false); err != nil {
			return err
		}
		if c.Heartbeat > 0 {
			c.requeue(name, c.Heartbeat)
		}
		return nil
	}

	if hasNotReadyTaint(node) {
		return c.setNotReadyTaint(ctx, g, node, false)
	}
	return c.heartbeat(ctx, g, node, ready)
}

// setNotReadyTaint adds or removes the node.kubernetes.io/not-ready
// NoSchedule taint. A real API server leaves it in place until someone (the
// node lifecycle controller, here this controller) removes it.
func (c *Controller) setNotReadyTaint(ctx context.Context, g *Group, node *corev1.Node, want bool) error {
	if hasNotReadyTaint(node) == want {
		return nil
	}
	updated := node.DeepCopy()
	if want {
		updated.Spec.Taints = append(updated.Spec.Taints, notReadyTaint)
	} else {
		kept := updated.Spec.Taints[:0]
		for _, t := range updated.Spec.Taints {
			if t.Key != notReadyTaint.Key || t.Effect != notReadyTaint.Effect {
				kept = append(kept, t)
			}
		}
		updated.Spec.Taints = kept
	}
	if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
		verb := "remove the not-ready taint from"
		if want {
			verb = "add the not-ready taint to"
		}
		return fmt.Errorf("node group %s: %s node %s (it is retried): %w", g.Name, verb, node.Name, err)
	}
	return nil
}

// heartbeat posts a Ready node's conditions again once Heartbeat has passed.
func (c *Controller) heartbeat(ctx context.Context, g *Group, node *corev1.Node, ready *corev1.NodeCondition) error {
	if c.Heartbeat <= 0 {
		return nil
	}
	now := c.env.Clock.Now()
	due := ready.LastHeartbeatTime.Add(c.Heartbeat)
	if due.After(now) {
		c.requeue(node.Name, due.Sub(now))
		return nil
	}
	updated := node.DeepCopy()
	for i := range updated.Status.Conditions {
		updated.Status.Conditions[i].LastHeartbeatTime = metav1.NewTime(now)
	}
	if _, err := c.env.Client.CoreV1().Nodes().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("node group %s: post the heartbeat of node %s (it is retried): %w", g.Name, node.Name, err)
	}
	c.requeue(node.Name, c.Heartbeat)
	return nil
}
