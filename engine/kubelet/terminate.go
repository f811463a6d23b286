package kubelet

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// stopTime is how long the pod's containers take to exit once asked to: the
// slowest container's rule decides.
func (k *Kubelet) stopTime(pod *corev1.Pod) time.Duration {
	var slowest time.Duration
	for i := range pod.Spec.Containers {
		d := k.ruleFor(pod.Spec.Containers[i].Image).Stop
		if d <= 0 {
			d = time.Second
		}
		slowest = max(slowest, d)
	}
	return slowest
}

// terminate handles a pod being deleted: its containers stop being ready at
// once, and once they have exited (the rule's Stop time, cut short by the
// grace period) the kubelet removes the pod from the API with a zero grace
// period, which is what lets the API server forget a bound pod.
func (k *Kubelet) terminate(ctx context.Context, key string, pod *corev1.Pod) error {
	now := k.env.Clock.Now()
	var grace time.Duration
	if pod.DeletionGracePeriodSeconds != nil {
		grace = time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second
	}
	// The API server sets deletionTimestamp to the request time plus grace.
	requested := pod.DeletionTimestamp.Add(-grace)
	gone := requested.Add(min(k.stopTime(pod), grace))

	if gone.After(now) {
		if pod.Status.StartTime != nil {
			st := statusToWrite(&pod.Status, &k.status)
			for i := range st.ContainerStatuses {
				st.ContainerStatuses[i].Ready = false
			}
			setConditions(pod, st, now, &k.conditions)
			if err := k.writeStatus(ctx, key, pod, st); err != nil {
				return err
			}
		}
		k.requeue(key, gone, now)
		return nil
	}

	zero := int64(0)
	err := k.pods.In(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{
		GracePeriodSeconds: &zero,
		// Never remove a new pod that took the old one's name.
		Preconditions: &metav1.Preconditions{UID: &pod.UID},
	})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return fmt.Errorf("kubelet: remove terminated pod %s (it is retried): %w", key, err)
	}
	k.forgetUID(key, pod.UID)
	return nil
}
