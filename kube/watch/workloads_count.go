package watch

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/kube/objects"
)

// CountWorkloads counts up to two workloads of each kind in namespace,
// enough to tell one from several (--plain follows the fleet when there are
// several); errors count nothing (the watch will say why).
func CountWorkloads(ctx context.Context, c kubernetes.Interface, namespace string) int {
	two := metav1.ListOptions{Limit: 2}
	n := 0
	for _, row := range objects.All() {
		if l, err := row.ListWatch(c, namespace).List(ctx, two); err == nil {
			n += meta.LenList(l)
		}
	}
	return n
}
