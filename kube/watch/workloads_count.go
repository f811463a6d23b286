package watch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// CountWorkloads counts up to two workloads of each kind in namespace,
// enough to tell one from several (--plain follows the fleet when there are
// several); errors count nothing (the watch will say why).
func CountWorkloads(ctx context.Context, c kubernetes.Interface, namespace string) int {
	two := metav1.ListOptions{Limit: 2}
	n := 0
	if l, err := c.AppsV1().Deployments(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	if l, err := c.CoreV1().ReplicationControllers(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	if l, err := c.AppsV1().StatefulSets(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	if l, err := c.AppsV1().DaemonSets(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	return n
}
