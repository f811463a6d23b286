package embedded

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
)

var everything = labels.Everything()

// create sends one scenario object to the API with the typed client of its kind.
func create(ctx context.Context, c kubernetes.Interface, obj runtime.Object) error {
	o := metav1.CreateOptions{}
	var err error
	switch x := obj.(type) {
	case *appsv1.Deployment:
		_, err = c.AppsV1().Deployments(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *appsv1.ReplicaSet:
		_, err = c.AppsV1().ReplicaSets(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *appsv1.DaemonSet:
		_, err = c.AppsV1().DaemonSets(x.Namespace).Create(ctx, x.DeepCopy(), o)
	case *corev1.ReplicationController:
		_, err = c.CoreV1().ReplicationControllers(x.Namespace).Create(ctx, x.DeepCopy(), o)
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

// deploymentSettled: the controller has seen the latest spec and the rollout
// is complete, has failed its progress deadline, or is paused with its pods
// settled (pausing holds the ReplicaSets' sizes, but pods already starting
// still become ready).
func deploymentSettled(d *appsv1.Deployment, owned []*appsv1.ReplicaSet) bool {
	if d.Status.ObservedGeneration < d.Generation {
		return false
	}
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c != nil && c.Reason == "ProgressDeadlineExceeded" {
		return true
	}
	if d.Spec.Paused {
		for _, rs := range owned {
			spec := model.SpecReplicas(rs)
			if rs.Status.Replicas != spec || rs.Status.AvailableReplicas != spec {
				return false
			}
		}
		return true
	}
	return model.DeploymentComplete(d, &d.Status)
}
