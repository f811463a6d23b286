package memapi

import (
	"fmt"
	"net/http"
	"slices"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// maxDisruptedPods is upstream's cap on evictions the PDB controller has not
// yet confirmed.
const maxDisruptedPods = 2000

const evictionRefused = "Cannot evict pod as it would violate the pod's disruption budget."

// evict handles POST pods/eviction (policy/v1 or v1beta1), following
// upstream's eviction subresource: pods that cannot count against a budget
// (finished, pending, or already being deleted) are deleted at once; a pod
// covered by more than one PodDisruptionBudget is refused with 500; a pod
// covered by one takes a disruption from it (429 when none is left) before
// it is deleted with the eviction's DeleteOptions. The budget and the pod
// are written together or not at all. The caller holds c.mu.
func (c *Cluster) evict(t *table, namespace string, obj runtime.Object, opts metav1.CreateOptions) (runtime.Object, error) {
	name, deleteOpts, err := evictionRequest(obj, opts)
	if err != nil {
		return nil, err
	}
	cur := t.get(namespace, name)
	if cur == nil {
		return nil, apierrors.NewNotFound(t.kind.groupResource(), name)
	}
	pod := cur.(*corev1.Pod)
	if err := checkDeletePreconditions(t.kind, pod, deleteOpts.Preconditions); err != nil {
		return nil, err
	}
	dryRun := isDryRun(deleteOpts.DryRun)
	success := &metav1.Status{Status: metav1.StatusSuccess}

	if canIgnoreBudget(pod) {
		c.evictPod(t, pod, deleteOpts, dryRun)
		return success, nil
	}
	budgets := c.budgetsFor(pod)
	switch {
	case len(budgets) > 1:
		return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
		}}
	case len(budgets) == 0:
		c.evictPod(t, pod, deleteOpts, dryRun)
		return success, nil
	}
	pdb := budgets[0]
	if !podReady(pod) {
		// An unready pod does not count as healthy, so evicting it takes no
		// disruption when the policy or the budget's health allows it.
		p := pdb.Spec.UnhealthyPodEvictionPolicy
		if (p != nil && *p == policyv1.AlwaysAllow) || (pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0) {
			c.evictPod(t, pod, deleteOpts, dryRun)
			return success, nil
		}
	}
	next, err := c.takeDisruption(pdb, pod.Name)
	if err != nil {
		return nil, err
	}
	if dryRun {
		return success, nil
	}
	c.commit(c.tables[policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets")], watch.Modified, next, pdb)
	c.evictPod(t, pod, deleteOpts, false)
	return success, nil
}

// evictionRequest reads the pod name and DeleteOptions of an Eviction,
// merging the request's dry-run option into them as upstream does.
func evictionRequest(obj runtime.Object, opts metav1.CreateOptions) (string, metav1.DeleteOptions, error) {
	var name string
	var del *metav1.DeleteOptions
	switch e := obj.(type) {
	case *policyv1.Eviction:
		name, del = e.Name, e.DeleteOptions
	case *policyv1beta1.Eviction:
		name, del = e.Name, e.DeleteOptions
	default:
		return "", metav1.DeleteOptions{}, apierrors.NewBadRequest(fmt.Sprintf("not a Eviction object: %T", obj))
	}
	if name == "" {
		return "", metav1.DeleteOptions{}, apierrors.NewBadRequest("the Eviction has no metadata.name: set it to the name of the pod to evict")
	}
	if del == nil {
		return name, metav1.DeleteOptions{DryRun: opts.DryRun}, nil
	}
	out := *del.DeepCopy()
	switch {
	case len(out.DryRun) == 0:
		out.DryRun = opts.DryRun
	case len(opts.DryRun) > 0 && !slices.Equal(out.DryRun, opts.DryRun):
		return "", metav1.DeleteOptions{}, apierrors.NewBadRequest(fmt.Sprintf("Non-matching dry-run options in request and content: %v and %v", opts.DryRun, out.DryRun))
	}
	return name, out, nil
}

// canIgnoreBudget reports pods whose eviction cannot disrupt an application
// any further: finished, never started, or already on their way out.
func canIgnoreBudget(pod *corev1.Pod) bool {
	switch pod.Status.Phase {
	case corev1.PodSucceeded, corev1.PodFailed, corev1.PodPending:
		return true
	}
	return pod.DeletionTimestamp != nil
}

func podReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// budgetsFor returns the PodDisruptionBudgets in the pod's namespace whose
// selector matches it. A budget whose selector cannot be parsed matches
// nothing; a nil selector matches nothing and an empty one everything.
func (c *Cluster) budgetsFor(pod *corev1.Pod) []*policyv1.PodDisruptionBudget {
	var out []*policyv1.PodDisruptionBudget
	for _, obj := range c.tables[policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets")].sorted(pod.Namespace) {
		pdb := obj.(*policyv1.PodDisruptionBudget)
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, pdb)
	}
	return out
}

// takeDisruption returns the budget with one disruption taken for podName,
// or the error upstream answers when the budget allows none.
func (c *Cluster) takeDisruption(pdb *policyv1.PodDisruptionBudget, podName string) (*policyv1.PodDisruptionBudget, error) {
	resource := policyv1.Resource("poddisruptionbudget")
	switch {
	case pdb.Status.ObservedGeneration < pdb.Generation:
		err := apierrors.NewTooManyRequests(evictionRefused, 10)
		err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
			Type: policyv1.DisruptionBudgetCause, Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdb.Name),
		})
		return nil, err
	case pdb.Status.DisruptionsAllowed < 0:
		return nil, apierrors.NewForbidden(resource, pdb.Name, fmt.Errorf("pdb disruptions allowed is negative"))
	case len(pdb.Status.DisruptedPods) > maxDisruptedPods:
		return nil, apierrors.NewForbidden(resource, pdb.Name, fmt.Errorf("DisruptedPods map too big - too many evictions not confirmed by PDB controller"))
	case pdb.Status.DisruptionsAllowed == 0:
		err := apierrors.NewTooManyRequests(evictionRefused, 0)
		err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
			Type:    policyv1.DisruptionBudgetCause,
			Message: fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb.Name, pdb.Status.DesiredHealthy, pdb.Status.CurrentHealthy),
		})
		return nil, err
	}
	next := pdb.DeepCopy()
	next.Status.DisruptionsAllowed--
	now := c.now()
	if next.Status.DisruptionsAllowed == 0 {
		apimeta.SetStatusCondition(&next.Status.Conditions, metav1.Condition{
			Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: policyv1.InsufficientPodsReason,
			ObservedGeneration: next.Status.ObservedGeneration, LastTransitionTime: now,
		})
	}
	if next.Status.DisruptedPods == nil {
		next.Status.DisruptedPods = map[string]metav1.Time{}
	}
	next.Status.DisruptedPods[podName] = now
	return next, nil
}

// evictPod marks the pod as a disruption target and deletes it, gracefully
// when it is running on a node.
func (c *Cluster) evictPod(t *table, pod *corev1.Pod, opts metav1.DeleteOptions, dryRun bool) {
	if dryRun {
		return
	}
	next := pod.DeepCopy()
	setPodCondition(&next.Status, corev1.PodCondition{
		Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting",
	}, c.now())
	var cur runtime.Object = pod
	if !podConditionsEqual(next, pod) {
		c.commit(t, watch.Modified, next, pod)
		cur = next
	}
	c.deleteStored(t, cur, opts)
}

func podConditionsEqual(a, b *corev1.Pod) bool {
	return slices.EqualFunc(a.Status.Conditions, b.Status.Conditions, func(x, y corev1.PodCondition) bool {
		return x.Type == y.Type && x.Status == y.Status && x.Reason == y.Reason && x.Message == y.Message && x.LastTransitionTime.Equal(&y.LastTransitionTime)
	})
}
