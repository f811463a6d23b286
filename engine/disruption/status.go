package disruption

import (
	"context"
	"fmt"

	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// budgetStatus is the status a budget should show.
type budgetStatus struct {
	currentHealthy, desiredHealthy, expected int32
	evicted                                  map[string]metav1.Time
}

// writeStatus updates the budget's status when it differs from what it
// should be. No disruption is allowed while the budget expects no pods, so
// that pods appearing before the next sync are protected.
func (c *Controller) writeStatus(ctx context.Context, b *policyv1.PodDisruptionBudget, s budgetStatus) error {
	allowed := s.currentHealthy - s.desiredHealthy
	if s.expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	if b.Status.CurrentHealthy == s.currentHealthy &&
		b.Status.DesiredHealthy == s.desiredHealthy &&
		b.Status.ExpectedPods == s.expected &&
		b.Status.DisruptionsAllowed == allowed &&
		equality.Semantic.DeepEqual(b.Status.DisruptedPods, s.evicted) &&
		b.Status.ObservedGeneration == b.Generation &&
		conditionUpToDate(b) {
		return nil
	}
	updated := b.DeepCopy()
	updated.Status = policyv1.PodDisruptionBudgetStatus{
		CurrentHealthy:     s.currentHealthy,
		DesiredHealthy:     s.desiredHealthy,
		ExpectedPods:       s.expected,
		DisruptionsAllowed: allowed,
		DisruptedPods:      s.evicted,
		ObservedGeneration: b.Generation,
		Conditions:         updated.Status.Conditions,
	}
	c.setAllowedCondition(updated)
	return c.put(ctx, updated)
}

// setAllowedCondition sets DisruptionAllowed from status.disruptionsAllowed.
func (c *Controller) setAllowedCondition(b *policyv1.PodDisruptionBudget) {
	cond := metav1.Condition{
		Type:               policyv1.DisruptionAllowedCondition,
		Status:             metav1.ConditionFalse,
		Reason:             policyv1.InsufficientPodsReason,
		ObservedGeneration: b.Status.ObservedGeneration,
		LastTransitionTime: metav1.NewTime(c.env.Clock.Now()),
	}
	if b.Status.DisruptionsAllowed > 0 {
		cond.Status, cond.Reason = metav1.ConditionTrue, policyv1.SufficientPodsReason
	}
	if b.Status.Conditions == nil {
		b.Status.Conditions = []metav1.Condition{}
	}
	meta.SetStatusCondition(&b.Status.Conditions, cond)
}

// conditionUpToDate reports whether DisruptionAllowed agrees with
// status.disruptionsAllowed for the budget's current generation.
func conditionUpToDate(b *policyv1.PodDisruptionBudget) bool {
	cond := meta.FindStatusCondition(b.Status.Conditions, policyv1.DisruptionAllowedCondition)
	if cond == nil || b.Status.ObservedGeneration != b.Generation {
		return false
	}
	if b.Status.DisruptionsAllowed > 0 {
		return cond.Status == metav1.ConditionTrue && cond.Reason == policyv1.SufficientPodsReason
	}
	return cond.Status == metav1.ConditionFalse && cond.Reason == policyv1.InsufficientPodsReason
}

func (c *Controller) put(ctx context.Context, b *policyv1.PodDisruptionBudget) error {
	_, err := c.env.Client.PolicyV1().PodDisruptionBudgets(b.Namespace).UpdateStatus(ctx, b, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update status of PodDisruptionBudget %s/%s: %w", b.Namespace, b.Name, err)
	}
	return nil
}
