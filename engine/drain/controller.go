package drain

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
)

// Controller drains the nodes that carry model.DrainRequestAnnotation. Its keys are
// node names.
type Controller struct {
	env   *control.Env
	queue control.Queue

	mu sync.Mutex
	// retryAt is when a pod a budget refused may be evicted again. It is
	// only a pacing aid: after a restart refused pods are tried at once.
	retryAt map[types.UID]time.Time
}

// New returns a drain controller.
func New(env *control.Env) *Controller {
	return &Controller{env: env, retryAt: map[types.UID]time.Time{}}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return "drain-controller" }

// Watches implements control.Controller: a node with a drain request, and
// any pod leaving a node, queue the node.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.queue = q
	onNode := func(obj any) {
		if n, ok := obj.(*corev1.Node); ok {
			if _, requested := n.Annotations[model.DrainRequestAnnotation]; requested {
				q.Add(n.Name)
			}
		}
	}
	onPodGone := func(obj any) {
		if p, ok := control.Deleted[*corev1.Pod](obj); ok && p.Spec.NodeName != "" {
			q.Add(p.Spec.NodeName)
		}
	}
	return map[control.Kind]cache.ResourceEventHandler{
		control.Nodes: cache.ResourceEventHandlerFuncs{
			AddFunc:    onNode,
			UpdateFunc: func(_, newObj any) { onNode(newObj) },
		},
		control.Pods: cache.ResourceEventHandlerFuncs{DeleteFunc: onPodGone},
	}
}

// Sync implements control.Controller: one step of one node's drain.
func (c *Controller) Sync(ctx context.Context, name string) error {
	node, err := c.env.Listers.Nodes.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("drain: read node %s from the cache: %w", name, err)
	}
	raw, requested := node.Annotations[model.DrainRequestAnnotation]
	state := node.Annotations[model.DrainStateAnnotation]
	if !requested || model.DrainOver(state) {
		return nil
	}
	now := c.env.Clock.Now()
	opts, err := ParseOptions(raw)
	if err != nil {
		return c.fail(ctx, node, err.Error())
	}
	if !node.Spec.Unschedulable || state == "" {
		return c.cordon(ctx, node, now)
	}
	started, err := time.Parse(time.RFC3339Nano, node.Annotations[model.DrainStartedAnnotation])
	if err != nil {
		started = now // a hand-edited annotation: time from now
	}

	pods, err := podsOn(c.env.Listers, name)
	if err != nil {
		return err
	}
	plan := Filter(pods, opts, daemonSetLookup(c.env.Listers), now)
	if err := plan.Err(); err != nil {
		// kubectl refuses the whole node and leaves it cordoned.
		return c.fail(ctx, node, err.Error())
	}

	left, blocked, err := c.evict(ctx, plan.Evict, opts, now)
	if err != nil {
		return err
	}
	if len(left) == 0 {
		c.env.Events.Eventf(node, corev1.EventTypeNormal, "Drained", "Node %s drained", name)
		return c.record(ctx, node, map[string]string{
			model.DrainStateAnnotation: model.DrainDrained, model.DrainPodsLeftAnnotation: "0", model.DrainBlockedAnnotation: "", model.DrainMessageAnnotation: plan.WarningText(),
		})
	}
	if opts.Timeout > 0 {
		deadline := started.Add(time.Duration(opts.Timeout))
		if !now.Before(deadline) {
			return c.fail(ctx, node, fmt.Sprintf("drain did not finish within %v: %d pods left (%s); the node stays cordoned — uncordon it or drain again with a longer timeout",
				time.Duration(opts.Timeout), len(left), strings.Join(left, ", ")))
		}
		c.queue.AddAfter(name, deadline.Sub(now))
	}
	st := model.DrainDraining
	var why []string
	for _, b := range blocked {
		why = append(why, b.String())
	}
	if len(blocked) > 0 {
		st = model.DrainBlocked
		c.queue.AddAfter(name, c.nextRetry(now))
	}
	return c.record(ctx, node, map[string]string{
		model.DrainStateAnnotation: st, model.DrainPodsLeftAnnotation: strconv.Itoa(len(left)), model.DrainBlockedAnnotation: strings.Join(why, "; "), model.DrainMessageAnnotation: plan.WarningText(),
	})
}

// cordon marks the node unschedulable and starts the drain's clock in one write.
func (c *Controller) cordon(ctx context.Context, node *corev1.Node, now time.Time) error {
	n := node.DeepCopy()
	n.Spec.Unschedulable = true
	n.Annotations[model.DrainStateAnnotation] = model.DrainDraining
	if _, ok := n.Annotations[model.DrainStartedAnnotation]; !ok {
		n.Annotations[model.DrainStartedAnnotation] = now.UTC().Format(time.RFC3339Nano)
	}
	if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("drain: unable to cordon node %q (it is retried): %w", node.Name, err)
	}
	if !node.Spec.Unschedulable {
		c.env.Events.Eventf(node, corev1.EventTypeNormal, "NodeNotSchedulable", "Node %s cordoned for a drain", node.Name)
	}
	return nil
}

// evict evicts (or deletes) every pod not yet going, and returns the pods
// still on the node and the ones a budget held back.
func (c *Controller) evict(ctx context.Context, pods []*corev1.Pod, o Options, now time.Time) (left []string, blocked []BlockedPod, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, pod := range pods {
		name := pod.Namespace + "/" + pod.Name
		if pod.DeletionTimestamp != nil {
			left = append(left, name)
			continue
		}
		if at, ok := c.retryAt[pod.UID]; ok && now.Before(at) {
			left = append(left, name)
			blocked = append(blocked, c.blockedBy(pod))
			continue
		}
		err := c.remove(ctx, pod, o)
		switch {
		case err == nil:
			delete(c.retryAt, pod.UID)
			left = append(left, name) // until it is gone
		case apierrors.IsNotFound(err):
			delete(c.retryAt, pod.UID)
		case apierrors.IsTooManyRequests(err):
			c.retryAt[pod.UID] = now.Add(RetryDelay)
			left = append(left, name)
			blocked = append(blocked, c.refusedBy(ctx, pod))
		case apierrors.IsForbidden(err) && apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
			// The namespace is going away with its pods; retry later.
			c.retryAt[pod.UID] = now.Add(RetryDelay)
			left = append(left, name)
		default:
			return nil, nil, fmt.Errorf("drain: error when evicting pods/%q -n %q (it is retried): %w", pod.Name, pod.Namespace, err)
		}
	}
	return left, blocked, nil
}

func (c *Controller) remove(ctx context.Context, pod *corev1.Pod, o Options) error {
	del := metav1.DeleteOptions{GracePeriodSeconds: o.GracePeriodSeconds}
	if o.GracePeriodSeconds != nil && *o.GracePeriodSeconds < 0 {
		del.GracePeriodSeconds = nil
	}
	pods := c.env.Client.CoreV1().Pods(pod.Namespace)
	if o.DisableEviction {
		return pods.Delete(ctx, pod.Name, del)
	}
	return pods.EvictV1(ctx, &policyv1.Eviction{
		ObjectMeta:    metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace},
		DeleteOptions: &del,
	})
}

func (c *Controller) blockedBy(pod *corev1.Pod) BlockedPod {
	b := BlockedPod{Pod: pod.Namespace + "/" + pod.Name}
	if budgets := budgetsFor(c.env.Listers.PodDisruptionBudgets, pod); len(budgets) > 0 {
		b.Budget = budgets[0]
	}
	return b
}

// refusedBy is blockedBy with the budget read from the API: the cache does
// not have the disruptions this sync's evictions just took.
func (c *Controller) refusedBy(ctx context.Context, pod *corev1.Pod) BlockedPod {
	b := c.blockedBy(pod)
	if b.Budget.Name == "" {
		return b
	}
	pdb, err := c.env.Client.PolicyV1().PodDisruptionBudgets(b.Budget.Namespace).Get(ctx, b.Budget.Name, metav1.GetOptions{})
	if err == nil {
		b.Budget.DisruptionsAllowed = pdb.Status.DisruptionsAllowed
		b.Budget.CurrentHealthy, b.Budget.DesiredHealthy = pdb.Status.CurrentHealthy, pdb.Status.DesiredHealthy
	}
	return b
}

// nextRetry is how long until the first refused pod may be tried again.
func (c *Controller) nextRetry(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	next := RetryDelay
	for uid, at := range c.retryAt {
		if d := at.Sub(now); d > 0 && d < next {
			next = d
		} else if d <= -RetryDelay {
			delete(c.retryAt, uid) // the pod went away without being tried again
		}
	}
	return next
}

func (c *Controller) fail(ctx context.Context, node *corev1.Node, msg string) error {
	c.env.Events.Eventf(node, corev1.EventTypeWarning, "DrainFailed", "Unable to drain node %q: %s", node.Name, msg)
	return c.record(ctx, node, map[string]string{model.DrainStateAnnotation: model.DrainFailed, model.DrainMessageAnnotation: msg, model.DrainBlockedAnnotation: ""})
}

// record writes the given annotations ("" removes one) when any differs.
func (c *Controller) record(ctx context.Context, node *corev1.Node, set map[string]string) error {
	changed := false
	for k, v := range set {
		cur, ok := node.Annotations[k]
		if (v == "" && ok) || (v != "" && cur != v) {
			changed = true
		}
	}
	if !changed {
		return nil
	}
	n := node.DeepCopy()
	for k, v := range set {
		if v == "" {
			delete(n.Annotations, k)
		} else {
			n.Annotations[k] = v
		}
	}
	if _, err := c.env.Client.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("drain: record the progress of node %s (it is retried): %w", node.Name, err)
	}
	return nil
}
