// Package podgc is the pod garbage collector's orphan sweep: pods bound to a
// node that no longer exists are marked Failed and force-deleted, as upstream's
// pod GC does, so that terminating a node frees the replicas that ran on it.
package podgc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// DefaultQuarantine is how long upstream's pod GC waits after first finding a
// node missing before it deletes the node's pods: a node that is only
// briefly absent from its cache keeps them.
const DefaultQuarantine = 40 * time.Second

// Controller deletes the pods of vanished nodes. Its keys are node names.
type Controller struct {
	// Quarantine is how long a node must stay missing before its pods go;
	// New sets DefaultQuarantine, zero deletes at once.
	Quarantine time.Duration

	env   *control.Env
	queue control.Queue

	mu      sync.Mutex
	missing map[string]time.Time // node → when it was first found missing
}

// New returns a pod garbage collector.
func New(env *control.Env) *Controller {
	return &Controller{Quarantine: DefaultQuarantine, env: env, missing: map[string]time.Time{}}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return "pod-garbage-collector" }

// Watches implements control.Controller: a deleted node, or a pod bound to a
// node, queues that node for a check.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.queue = q
	onPod := func(obj any) {
		if p, ok := obj.(*corev1.Pod); ok && p.Spec.NodeName != "" {
			q.Add(p.Spec.NodeName)
		}
	}
	return map[control.Kind]cache.ResourceEventHandler{
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc: onPod,
			UpdateFunc: func(oldObj, newObj any) {
				old, ok1 := oldObj.(*corev1.Pod)
				p, ok2 := newObj.(*corev1.Pod)
				if ok1 && ok2 && old.Spec.NodeName != p.Spec.NodeName {
					onPod(p)
				}
			},
		},
		control.Nodes: cache.ResourceEventHandlerFuncs{
			DeleteFunc: func(obj any) {
				if key := control.Key(obj); key != "" {
					q.Add(key)
				}
			},
		},
	}
}

// Sync implements control.Controller for one node name.
func (c *Controller) Sync(ctx context.Context, node string) error {
	_, err := c.env.Listers.Nodes.Get(node)
	if err == nil {
		c.clear(node)
		return nil
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("pod GC: read node %s from the cache: %w", node, err)
	}
	now := c.env.Clock.Now()
	if wait := c.quarantineLeft(node, now); wait > 0 {
		if c.queue != nil {
			c.queue.AddAfter(node, wait)
		}
		return nil
	}
	pods, err := c.env.Listers.PodIndex.ByIndex(control.IndexByNode, node)
	if err != nil {
		return fmt.Errorf("pod GC: list the pods of vanished node %s: %w", node, err)
	}
	var errs []error
	for _, obj := range pods {
		if p, ok := obj.(*corev1.Pod); ok {
			if err := c.deleteOrphan(ctx, p, now); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	c.clear(node)
	return nil
}

// quarantineLeft records when node was first found missing and returns how
// much of its quarantine is left.
func (c *Controller) quarantineLeft(node string, now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	since, ok := c.missing[node]
	if !ok {
		since = now
		c.missing[node] = now
	}
	return since.Add(c.Quarantine).Sub(now)
}

func (c *Controller) clear(node string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.missing, node)
}

// deleteOrphan marks the pod Failed with a DisruptionTarget condition, as
// upstream does so that its owners see why it went, then deletes it with no
// grace period: no kubelet is left to finish a graceful deletion.
func (c *Controller) deleteOrphan(ctx context.Context, p *corev1.Pod, now time.Time) error {
	pods := c.env.Client.CoreV1().Pods(p.Namespace)
	if p.Status.Phase != corev1.PodFailed && p.Status.Phase != corev1.PodSucceeded {
		updated := p.DeepCopy()
		updated.Status.Phase = corev1.PodFailed
		cond := corev1.PodCondition{
			Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
			Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists", LastTransitionTime: metav1.NewTime(now),
		}
		replaced := false
		for i := range updated.Status.Conditions {
			if updated.Status.Conditions[i].Type == corev1.DisruptionTarget {
				updated.Status.Conditions[i], replaced = cond, true
			}
		}
		if !replaced {
			updated.Status.Conditions = append(updated.Status.Conditions, cond)
		}
		if _, err := pods.UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("pod GC: mark orphaned pod %s/%s Failed (it is retried): %w", p.Namespace, p.Name, err)
		}
	}
	zero := int64(0)
	err := pods.Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &p.UID}})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return fmt.Errorf("pod GC: delete orphaned pod %s/%s (it is retried): %w", p.Namespace, p.Name, err)
	}
	return nil
}
