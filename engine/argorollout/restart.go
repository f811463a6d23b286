package argorollout

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
	"rollscope/model/argo"
)

// restartPodCheckTime is how soon Argo looks again at a restart that has
// pods left to replace.
const restartPodCheckTime = 30 * time.Second

// reconcileRestart is Argo's RolloutPodRestarter.Reconcile: after
// spec.restartAt, the Rollout's pods created before it are evicted, as many
// at a time as maxUnavailable allows (at least one), until none is left;
// then status.restartedAt takes spec.restartAt. It answers how many pods it
// evicted: the sync then ends, the availability counts no longer true.
func (rc *rolloutContext) reconcileRestart(ctx context.Context) (int, error) {
	ro, now := rc.ro, rc.now.Time
	at := ro.Spec.RestartAt
	if at == nil {
		return 0, nil
	}
	if now.Before(at.Time) {
		rc.c.enqueueAfter(rc.key, at.Sub(now))
	}
	if ro.Status.RestartedAt != nil && at.Equal(ro.Status.RestartedAt) || !now.After(at.Time) {
		return 0, nil
	}
	pods := rc.rolloutPods()
	total := model.ReplicaCount(rc.allRSs)
	replicas := replicasOrDefault(ro)
	var available int32
	for _, p := range pods {
		if p.DeletionTimestamp == nil && model.IsPodAvailable(p, ro.Spec.MinReadySeconds, now) {
			available++
		}
	}
	concurrent := max(argo.MaxUnavailable(ro), 1)
	canRestart := available - (max(replicas, total) - concurrent)
	restarted, needs := 0, 0
	for _, p := range pods {
		if !p.CreationTimestamp.Time.Before(at.Time) {
			continue
		}
		needs++
		if canRestart <= 0 || p.DeletionTimestamp != nil {
			continue
		}
		ev := &policyv1beta1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		if err := rc.c.env.Client.CoreV1().Pods(p.Namespace).EvictV1beta1(ctx, ev); err != nil {
			if apierrors.IsTooManyRequests(err) {
				continue // a disruption budget: the next look tries again
			}
			return restarted, fmt.Errorf("restart pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		canRestart--
		restarted++
	}
	if needs != restarted {
		rc.c.enqueueAfter(rc.key, restartPodCheckTime)
	} else {
		rc.newStatus.RestartedAt = at
	}
	return restarted, nil
}

// rolloutPods are the pods the Rollout's selector selects that one of its
// ReplicaSets owns, by name (the order the API lists them in).
func (rc *rolloutContext) rolloutPods() []*corev1.Pod {
	var pods []*corev1.Pod
	for _, rs := range rc.allRSs {
		sel, err := metav1.LabelSelectorAsSelector(rc.ro.Spec.Selector)
		if err != nil {
			return nil
		}
		pods = append(pods, rc.c.env.Listers.OwnedPods(rs, sel)...)
	}
	slices.SortFunc(pods, func(a, b *corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	return pods
}
