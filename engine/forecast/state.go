package forecast

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
)

// ReadState reads deployment namespace/name as a forecast starts from: the
// deployment, the ReplicaSets it controls (found as kubectl finds them) and
// the pods its selector matches. now is the cluster's time.
func ReadState(ctx context.Context, c kubernetes.Interface, namespace, name string, now time.Time) (State, error) {
	d, err := c.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return State{}, fmt.Errorf("cannot read deployment/%s: %w", name, err)
	}
	rss, err := actions.OwnedReplicaSets(ctx, c, d)
	if err != nil {
		return State{}, err
	}
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return State{}, fmt.Errorf("deployment/%s has an invalid selector: %w", name, err)
	}
	list, err := c.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return State{}, fmt.Errorf("cannot list the pods of deployment/%s: %w", name, err)
	}
	pods := make([]*corev1.Pod, len(list.Items))
	for i := range list.Items {
		pods[i] = &list.Items[i]
	}
	return State{Deployment: d, ReplicaSets: rss, Pods: pods, Now: now}, nil
}
