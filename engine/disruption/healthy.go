package disruption

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// pendingEvictions keeps the entries of status.disruptedPods that still
// stand: the pod exists, is not being deleted yet, and was evicted less than
// deletionTimeout ago. It also returns when the earliest of them goes stale,
// so the budget can be looked at again then. Entries whose pod outlived the
// timeout are reported through stale.
func pendingEvictions(b *policyv1.PodDisruptionBudget, pods []*corev1.Pod, now time.Time, stale func(*corev1.Pod)) (map[string]metav1.Time, *time.Time) {
	kept := map[string]metav1.Time{}
	var recheck *time.Time
	if len(b.Status.DisruptedPods) == 0 {
		return kept, nil
	}
	var outlived []*corev1.Pod
	defer func() {
		// Reported in name order, whatever order pods came in.
		sort.Slice(outlived, func(i, j int) bool { return outlived[i].Name < outlived[j].Name })
		for _, p := range outlived {
			stale(p)
		}
	}()
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue // the eviction went through
		}
		evicted, ok := b.Status.DisruptedPods[p.Name]
		if !ok {
			continue
		}
		expires := evicted.Add(deletionTimeout)
		if expires.Before(now) {
			outlived = append(outlived, p)
			continue
		}
		if recheck == nil || expires.Before(*recheck) {
			recheck = &expires
		}
		kept[p.Name] = evicted
	}
	return kept, recheck
}

// healthyPods counts ready pods that are neither being deleted nor about to
// be, per evicted.
func healthyPods(pods []*corev1.Pod, evicted map[string]metav1.Time, now time.Time) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if at, ok := evicted[p.Name]; ok && at.Add(deletionTimeout).After(now) {
			continue
		}
		if model.IsPodReady(p) {
			n++
		}
	}
	return n
}
