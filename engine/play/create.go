package play

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/sim"
	"rollscope/kube/objects"
	"rollscope/model/kind"
)

// CreateAll creates a scenario's objects in order; the first that the API
// refuses stops it, named in the error.
func CreateAll(ctx context.Context, c kubernetes.Interface, scenarioName string, objs []runtime.Object) error {
	for _, obj := range objs {
		if err := Create(ctx, c, obj); err != nil {
			name := ""
			if m, _ := meta.Accessor(obj); m != nil {
				name = m.GetName()
			}
			return fmt.Errorf("scenario %s: cannot create %s %q: %w", scenarioName, kindName(obj), name, err)
		}
	}
	return nil
}

func kindName(obj runtime.Object) string {
	if k, ok := sim.KindOf(obj); ok {
		return string(k)
	}
	return fmt.Sprintf("%T", obj)
}

// Create sends one scenario object to the API: a workload through its
// kind's row (kube/objects), anything else with its typed client. The object is copied: the scenario stays as it was parsed.
func Create(ctx context.Context, c kubernetes.Interface, obj runtime.Object) error {
	o := metav1.CreateOptions{}
	var err error
	if w, ok := kind.Of(obj); ok {
		row, _ := objects.For(w.Kind())
		return row.Create(ctx, c, obj)
	}
	switch x := obj.(type) {
	case *appsv1.ReplicaSet:
		_, err = c.AppsV1().ReplicaSets(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *policyv1.PodDisruptionBudget:
		_, err = c.PolicyV1().PodDisruptionBudgets(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *corev1.Namespace:
		_, err = c.CoreV1().Namespaces().Create(ctx, x.DeepCopy(), o)
	case *corev1.ConfigMap:
		_, err = c.CoreV1().ConfigMaps(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *corev1.Service:
		_, err = c.CoreV1().Services(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *corev1.Pod:
		_, err = c.CoreV1().Pods(x.Namespace).Create(ctx, x.DeepCopy(), o)
	default:
		err = fmt.Errorf("objects of type %T are not supported in scenarios", obj)
	}
	return err
}
