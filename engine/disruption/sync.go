package disruption

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
)

// Sync implements control.Controller: it recomputes the status of the budget
// named by key ("namespace/name"). When that fails, it sets
// disruptionsAllowed to 0 with DisruptionAllowed=False/SyncFailed, so that
// evictions stop rather than trust a stale count, and returns the error to be
// retried.
func (c *Controller) Sync(ctx context.Context, key string) error {
	if c.env == nil || c.env.Client == nil || c.env.Clock == nil || c.env.Listers.Pods == nil || c.env.Listers.PodDisruptionBudgets == nil {
		return errors.New(Name + ": the runner gave no API client, clock, pod or PodDisruptionBudget lister; wire control.Env fully before syncing")
	}
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil // not a budget key; retrying cannot help
	}
	b, err := c.env.Listers.PodDisruptionBudgets.PodDisruptionBudgets(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read PodDisruptionBudget %s from the cache: %w", key, err)
	}
	err = c.trySync(ctx, b)
	if err == nil || apierrors.IsConflict(err) {
		// A conflict only means the budget changed under us; the change
		// enqueues it again, with nothing to fail safe about.
		return err
	}
	if fsErr := c.failSafe(ctx, b, err); fsErr != nil {
		return fsErr
	}
	return err
}

func (c *Controller) trySync(ctx context.Context, b *policyv1.PodDisruptionBudget) error {
	pods, err := c.selectedPods(b)
	if err != nil {
		c.event(b, corev1.EventTypeWarning, "NoPods", "Failed to get pods: %v", err)
		return err
	}
	if len(pods) == 0 {
		c.event(b, corev1.EventTypeNormal, "NoPods", "No matching pods found")
	}
	t, err := c.budgetTarget(ctx, b, pods)
	if err != nil {
		c.event(b, corev1.EventTypeWarning, "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: %v", err)
		return err
	}
	if len(t.unmanaged) > 0 {
		c.event(b, corev1.EventTypeWarning, "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: %v) were found "+
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
			"To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.", b.Spec.Selector)
	}
	now := c.env.Clock.Now()
	evicted, recheck := pendingEvictions(b, pods, now, func(p *corev1.Pod) {
		// Upstream's wording, including its repeating the namespace.
		c.event(p, corev1.EventTypeWarning, "NotDeleted", "Pod was expected by PDB %s/%s to be deleted but it wasn't", b.Namespace, b.Namespace)
	})
	err = c.writeStatus(ctx, b, budgetStatus{
		currentHealthy: healthyPods(pods, evicted, now),
		desiredHealthy: t.desiredHealthy,
		expected:       t.expected,
		evicted:        evicted,
	})
	if err == nil && recheck != nil {
		// An eviction that is not followed by a deletion in time must stop
		// counting against the budget without any event to say so.
		if q := c.q(); q != nil {
			q.AddAfter(budgetKey(b), recheck.Sub(now))
		}
	}
	return err
}

// selectedPods lists the budget's pods, in no particular order: everything
// computed from them is a count, a map or sorted where it is shown. A nil
// selector selects nothing; an empty one selects every pod of the namespace.
func (c *Controller) selectedPods(b *policyv1.PodDisruptionBudget) ([]*corev1.Pod, error) {
	sel, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("read selector of PodDisruptionBudget %s/%s: %w", b.Namespace, b.Name, err)
	}
	return c.env.Listers.Pods.Pods(b.Namespace).List(sel)
}

// failSafe forbids disruptions after a failed sync.
func (c *Controller) failSafe(ctx context.Context, b *policyv1.PodDisruptionBudget, cause error) error {
	updated := b.DeepCopy()
	updated.Status.DisruptionsAllowed = 0
	if updated.Status.Conditions == nil {
		updated.Status.Conditions = []metav1.Condition{}
	}
	meta.SetStatusCondition(&updated.Status.Conditions, metav1.Condition{
		Type:               policyv1.DisruptionAllowedCondition,
		Status:             metav1.ConditionFalse,
		Reason:             policyv1.SyncFailedReason,
		Message:            cause.Error(),
		ObservedGeneration: updated.Status.ObservedGeneration,
		LastTransitionTime: metav1.NewTime(c.env.Clock.Now()),
	})
	return c.put(ctx, updated)
}

func (c *Controller) event(obj runtime.Object, eventType, reason, format string, args ...any) {
	if c.env.Events != nil {
		c.env.Events.Eventf(obj, eventType, reason, format, args...)
	}
}
