package e2etest

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Deployment is the deployment most tests roll: name in ns, replicas pods
// labelled app=name of one container "app" on image, with the API
// server's default strategy. A test changes what its case needs before
// creating it.
func Deployment(ns, name string, replicas int32, image string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}},
			},
		},
	}
}

// RollingUpdate gives d a rolling update with these budgets.
func RollingUpdate(d *appsv1.Deployment, maxSurge, maxUnavailable intstr.IntOrString) *appsv1.Deployment {
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &maxSurge, MaxUnavailable: &maxUnavailable}}
	return d
}

// OneAtATime has d roll one pod at a time: maxSurge 1, maxUnavailable 0,
// so that every step of a rollout can be seen.
func OneAtATime(d *appsv1.Deployment) *appsv1.Deployment {
	return RollingUpdate(d, intstr.FromInt32(1), intstr.FromInt32(0))
}
