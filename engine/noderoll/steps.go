package noderoll

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/nodegroup"
	"rollscope/model"
)

// taint puts kops' scheduled-for-update taint on the nodes to replace that
// are schedulable and not tainted yet, and reports whether it wrote any.
func (c *Controller) taint(ctx context.Context, nodes []*corev1.Node) (bool, error) {
	wrote := false
	for _, n := range nodes {
		if n.Spec.Unschedulable || hasTaint(n) {
			continue
		}
		u := n.DeepCopy()
		u.Spec.Taints = append(u.Spec.Taints, TaintScheduledForUpdate)
		if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, u, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return wrote, fmt.Errorf("node roll: taint node %s %s (it is retried): %w", n.Name, TaintScheduledForUpdate.Key, err)
		}
		wrote = true
	}
	return wrote, nil
}

func hasTaint(n *corev1.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == TaintScheduledForUpdate.Key && t.Effect == TaintScheduledForUpdate.Effect {
			return true
		}
	}
	return false
}

// detach takes a node out of its group's count so that the group launches
// a replacement (kops' surge).
func (c *Controller) detach(ctx context.Context, n *corev1.Node) error {
	u := n.DeepCopy()
	u.Annotations[model.DetachedAnnotation] = "true"
	if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, u, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("node roll: detach node %s from its group (it is retried): %w", n.Name, err)
	}
	c.env.Events.Eventf(n, corev1.EventTypeNormal, "Detached", "Detached node %s from group %s to surge a replacement", n.Name, nodegroup.GroupOf(n))
	return nil
}

// startNode marks a node as rolling and requests its drain, in one write:
// the drain controller cordons it and evicts its pods.
func (c *Controller) startNode(ctx context.Context, r *roll, n *corev1.Node) error {
	u := n.DeepCopy()
	u.Annotations[model.RollNodeAnnotation] = model.RollStepDraining
	for _, k := range []string{model.DrainStateAnnotation, model.DrainStartedAnnotation, model.DrainPodsLeftAnnotation, model.DrainBlockedAnnotation, model.DrainMessageAnnotation} {
		delete(u.Annotations, k)
	}
	opts := r.spec.drainOptions()
	u.Annotations[model.DrainRequestAnnotation] = encodeDrain(opts)
	if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, u, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("node roll %s: start draining node %s (it is retried): %w", r.spec.Group, n.Name, err)
	}
	c.env.Events.Eventf(n, corev1.EventTypeNormal, "RollingNode", "Draining node %s of group %s", n.Name, r.spec.Group)
	return nil
}

// finishNode acts on a draining node's outcome: a drained node is
// terminated (or, where rollscope cannot replace nodes and was not allowed
// to delete them, left drained and cordoned); a failed drain fails the roll.
// It reports whether the node is done.
func (c *Controller) finishNode(ctx context.Context, r *roll, n *corev1.Node) (bool, error) {
	switch n.Annotations[model.DrainStateAnnotation] {
	case model.DrainDrained:
	case model.DrainFailed:
		msg := fmt.Sprintf("drain of node %s failed: %s — the roll stopped (fail on drain error); %s stays cordoned, the nodes not yet rolled are untouched",
			n.Name, n.Annotations[model.DrainMessageAnnotation], n.Name)
		c.env.Events.Eventf(n, corev1.EventTypeWarning, "RollFailed", "Group %s: %s", r.spec.Group, msg)
		return false, c.setState(ctx, r, model.RollFailed, msg)
	default:
		if _, requested := n.Annotations[model.DrainRequestAnnotation]; !requested {
			// Someone cancelled the drain: ask again, the roll still needs it.
			return false, c.startNode(ctx, r, n)
		}
		return false, nil
	}
	if c.replaces(r.spec.Group) || r.spec.DeleteNodes {
		err := c.env.Client.CoreV1().Nodes().Delete(ctx, n.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return false, fmt.Errorf("node roll %s: terminate node %s (it is retried): %w", r.spec.Group, n.Name, err)
		}
		c.env.Events.Eventf(n, corev1.EventTypeNormal, "TerminatedNode", "Terminated node %s of group %s", n.Name, r.spec.Group)
		return true, nil
	}
	u := n.DeepCopy()
	u.Annotations[model.RollNodeAnnotation] = model.RollStepDrained
	if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, u, metav1.UpdateOptions{}); err != nil {
		return false, fmt.Errorf("node roll %s: record node %s as drained (it is retried): %w", r.spec.Group, n.Name, err)
	}
	c.env.Events.Eventf(n, corev1.EventTypeNormal, "DrainedNode", "Node %s of group %s is drained and cordoned; replace its machine", n.Name, r.spec.Group)
	return true, nil
}

// replaces reports whether the cluster runs the group itself, so that
// deleting a node has the group launch a replacement.
func (c *Controller) replaces(group string) bool {
	for _, g := range c.groups {
		if g.Name == group {
			return true
		}
	}
	return false
}

// finish ends a roll with no node left to do.
func (c *Controller) finish(ctx context.Context, r *roll) error {
	c.env.Events.Eventf(r.inRoll[0], corev1.EventTypeNormal, "RollFinished", "Group %s: every node drained", r.spec.Group)
	return c.setState(ctx, r, model.RollFinished, "")
}

// stop cancels the drains in flight, once, and says what was left.
func (c *Controller) stop(ctx context.Context, r *roll) error {
	if r.inRoll[0].Annotations[model.RollMessageAnnotation] != "" {
		return nil
	}
	var drained, cancelled []string
	for _, n := range r.inRoll {
		switch n.Annotations[model.RollNodeAnnotation] {
		case model.RollStepDrained:
			drained = append(drained, n.Name)
		case model.RollStepDraining:
			if n.Annotations[model.DrainStateAnnotation] == model.DrainDrained {
				drained = append(drained, n.Name)
				continue
			}
			cancelled = append(cancelled, n.Name)
			u := n.DeepCopy()
			delete(u.Annotations, model.DrainRequestAnnotation)
			u.Annotations[model.DrainStateAnnotation] = model.DrainFailed
			u.Annotations[model.DrainMessageAnnotation] = "drain cancelled: the roll was stopped; the node stays cordoned"
			if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, u, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("node roll %s: cancel the drain of node %s (it is retried): %w", r.spec.Group, n.Name, err)
			}
		}
	}
	msg := fmt.Sprintf("stopped: drained and cordoned: %s; drain cancelled, left cordoned: %s; the other nodes are untouched", summary(drained), summary(cancelled))
	c.env.Events.Eventf(r.inRoll[0], corev1.EventTypeNormal, "RollStopped", "Group %s %s", r.spec.Group, msg)
	return c.setState(ctx, r, model.RollStopped, msg)
}
