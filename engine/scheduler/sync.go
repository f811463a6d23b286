package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// Event reasons, as kube-scheduler records them.
const (
	reasonScheduled        = "Scheduled"
	reasonFailedScheduling = "FailedScheduling"
	// conditionUnschedulable is the PodScheduled=False reason of a pod that
	// fits on no node.
	conditionUnschedulable = corev1.PodReasonUnschedulable
)

// Sync implements control.Controller: it places the pod named by key
// ("namespace/name") if it still needs a node.
func (c *Controller) Sync(ctx context.Context, key string) error {
	if c.env == nil || c.env.Client == nil || c.env.Clock == nil || c.env.Listers.Pods == nil {
		return errors.New(Name + ": the runner gave no API client, clock or pod lister; wire control.Env fully before syncing")
	}
	if strings.Count(key, "/") != 1 {
		return nil // not a pod key; retrying cannot help
	}
	pod, found, err := c.env.Listers.PodByKey(key)
	if err != nil {
		return fmt.Errorf("read pod %s from the cache: %w", key, err)
	}
	if !found {
		c.forgetWaiting(key)
		return nil
	}
	if !responsible(pod) {
		c.forgetWaiting(key)
		return nil
	}

	d := newDemand(pod)
	c.mu.Lock()
	if c.nodes.isAssumed(nameOf(pod)) {
		// Bound already; the cache has not caught up with the binding.
		c.mu.Unlock()
		return nil
	}
	if v, ok := c.waiting[key]; ok && v == c.nodes.version {
		// Nothing that could make room has happened since it last failed.
		c.mu.Unlock()
		return nil
	}
	node, reasons := c.nodes.pick(d)
	arm := false
	if node != "" {
		c.nodes.assume(nameOf(pod), pod, node, d.requests)
		c.forgetWaitingLocked(key)
	} else {
		c.waiting[key] = c.nodes.version
		now := c.env.Clock.Now()
		if due, ok := c.retryAt[key]; !ok || !due.After(now) {
			c.retryAt[key] = now.Add(retryInterval)
			arm = true
		}
	}
	nodeCount := len(c.nodes.order)
	q := c.queue
	c.mu.Unlock()

	if node != "" {
		return c.bind(ctx, key, pod, node)
	}
	if arm && q != nil {
		q.AddAfter(key, retryInterval)
	}
	if err := c.markUnschedulable(ctx, pod, unschedulableMessage(nodeCount, reasons)); err != nil {
		// Let the retry compute again rather than skip as "nothing changed".
		c.forgetWaiting(key)
		return err
	}
	return nil
}

func (c *Controller) forgetWaiting(key string) {
	c.mu.Lock()
	c.forgetWaitingLocked(key)
	c.mu.Unlock()
}

// bind assigns pod to node through the binding subresource.
func (c *Controller) bind(ctx context.Context, key string, pod *corev1.Pod, node string) error {
	b := &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: node},
	}
	if err := c.pods.In(pod.Namespace).Bind(ctx, b, metav1.CreateOptions{}); err != nil {
		c.mu.Lock()
		c.nodes.unassume(nameOf(pod))
		c.mu.Unlock()
		if apierrors.IsNotFound(err) {
			return nil // the pod is gone
		}
		return fmt.Errorf("bind pod %s to node %s: %w", key, node, err)
	}
	// Upstream's "Successfully assigned %v/%v to %v", put together without
	// fmt: one event for every pod placed.
	c.event(pod, corev1.EventTypeNormal, reasonScheduled, "%s", "Successfully assigned "+pod.Namespace+"/"+pod.Name+" to "+node)
	return nil
}

// markUnschedulable sets PodScheduled=False/Unschedulable with msg. It writes,
// and records a FailedScheduling event, only when the condition changes, so
// that a pod waiting for room does not flood the event stream.
func (c *Controller) markUnschedulable(ctx context.Context, pod *corev1.Pod, msg string) error {
	now := metav1.NewTime(c.env.Clock.Now())
	want := corev1.PodCondition{
		Type:               corev1.PodScheduled,
		Status:             corev1.ConditionFalse,
		Reason:             conditionUnschedulable,
		Message:            msg,
		LastTransitionTime: now,
	}
	old := model.PodCondition(&pod.Status, corev1.PodScheduled)
	if old != nil {
		if old.Status == want.Status {
			want.LastTransitionTime = old.LastTransitionTime
		}
		if old.Status == want.Status && old.Reason == want.Reason && old.Message == want.Message {
			return nil
		}
	}
	updated := pod.DeepCopy()
	if c := model.PodCondition(&updated.Status, corev1.PodScheduled); c != nil {
		*c = want
	} else {
		updated.Status.Conditions = append(updated.Status.Conditions, want)
	}
	if _, err := c.pods.In(pod.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("record that pod %s/%s is unschedulable: %w", pod.Namespace, pod.Name, err)
	}
	c.event(pod, corev1.EventTypeWarning, reasonFailedScheduling, "%s", msg)
	return nil
}

func (c *Controller) event(pod *corev1.Pod, eventType, reason, format string, args ...any) {
	if c.env.Events != nil {
		c.env.Events.Eventf(pod, eventType, reason, format, args...)
	}
}
