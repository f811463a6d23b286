package drain

import (
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	policylisters "k8s.io/client-go/listers/policy/v1"

	"rollscope/model"
)

// Budget is a PodDisruptionBudget as a drain sees it.
type Budget struct {
	Namespace, Name string
	// DisruptionsAllowed is the budget's status: how many of its pods may
	// be evicted now.
	DisruptionsAllowed int32
	// CurrentHealthy and DesiredHealthy are the budget's status counts.
	CurrentHealthy, DesiredHealthy int32
}

// String names the budget and what it allows, for the blocked annotation
// (spelled by model.BudgetHold, which the console reads back).
func (b Budget) String() string {
	return model.BudgetHold{Namespace: b.Namespace, Name: b.Name,
		Allowed: b.DisruptionsAllowed, Healthy: b.CurrentHealthy, Needed: b.DesiredHealthy}.Budget()
}

// budgetsFor returns the budgets whose selector matches the pod, as the
// eviction subresource finds them.
func budgetsFor(l policylisters.PodDisruptionBudgetLister, pod *corev1.Pod) []Budget {
	if l == nil || len(pod.Labels) == 0 {
		return nil
	}
	pdbs, err := l.PodDisruptionBudgets(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var out []Budget
	for _, pdb := range pdbs {
		if matches(pdb, pod) {
			out = append(out, Budget{
				Namespace: pdb.Namespace, Name: pdb.Name,
				DisruptionsAllowed: pdb.Status.DisruptionsAllowed,
				CurrentHealthy:     pdb.Status.CurrentHealthy, DesiredHealthy: pdb.Status.DesiredHealthy,
			})
		}
	}
	return out
}

func matches(pdb *policyv1.PodDisruptionBudget, pod *corev1.Pod) bool {
	sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
	if err != nil || sel.Empty() {
		return false
	}
	return sel.Matches(labels.Set(pod.Labels))
}
