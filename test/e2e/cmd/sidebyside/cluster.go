package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"rollscope/test/e2e/e2etest"
)

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

const appName = "app"

func deployment(namespace string, n int) *appsv1.Deployment {
	return deploymentNamed(namespace, appName, n)
}

func deploymentNamed(namespace, name string, n int) *appsv1.Deployment {
	quarter := intstr.FromString("25%")
	d := e2etest.RollingUpdate(e2etest.Deployment(namespace, name, int32(n), "example.com/app:v1"), quarter, quarter)
	d.Spec.Template.Spec.Containers[0].Resources.Requests = corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("16Mi")}
	return d
}

// create makes the namespace and the deployment, once the namespace's
// default service account (without which pods are refused) exists.
func create(ctx context.Context, admin kubernetes.Interface, namespace string, n int) error {
	return createMany(ctx, admin, namespace, 0, n)
}

// createMany makes the namespace and, with count > 0, Deployments app-0 …
// of n replicas each; with count 0 the one Deployment app.
func createMany(ctx context.Context, admin kubernetes.Interface, namespace string, count, n int) error {
	if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	if err := until(ctx, 2*time.Minute, "the default service account", func() (bool, error) {
		_, err := admin.CoreV1().ServiceAccounts(namespace).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	}); err != nil {
		return err
	}
	if count == 0 {
		_, err := admin.AppsV1().Deployments(namespace).Create(ctx, deployment(namespace, n), metav1.CreateOptions{})
		return err
	}
	for i := range count {
		d := deploymentNamed(namespace, fmt.Sprintf("%s-%d", appName, i), n)
		if _, err := admin.AppsV1().Deployments(namespace).Create(ctx, d, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// setImage is `kubectl set image deployment/app app=IMAGE`.
func setImage(ctx context.Context, admin kubernetes.Interface, namespace, image string) error {
	return setImageOf(ctx, admin, namespace, appName, image)
}

// setImageOf is `kubectl set image deployment/NAME app=IMAGE`.
func setImageOf(ctx context.Context, admin kubernetes.Interface, namespace, name, image string) error {
	patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":%q,"image":%q}]}}}}`, appName, image)
	_, err := admin.AppsV1().Deployments(namespace).Patch(ctx, name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// complete is what `kubectl rollout status` waits for.
func complete(ctx context.Context, admin kubernetes.Interface, namespace string) (bool, error) {
	d, err := admin.AppsV1().Deployments(namespace).Get(ctx, appName, metav1.GetOptions{})
	if err != nil {
		return false, err
	}
	want := *d.Spec.Replicas
	s := d.Status
	return s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == want && s.Replicas == want && s.AvailableReplicas == want, nil
}

// everyComplete is complete for every Deployment of the namespace.
func everyComplete(ctx context.Context, admin kubernetes.Interface, namespace string) (bool, error) {
	list, err := admin.AppsV1().Deployments(namespace).List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) == 0 {
		return false, err
	}
	for _, d := range list.Items {
		s := d.Status
		if want := *d.Spec.Replicas; s.ObservedGeneration < d.Generation || s.UpdatedReplicas != want || s.Replicas != want || s.AvailableReplicas != want {
			return false, nil
		}
	}
	return true, nil
}

// apiRows are the namespace's ReplicaSets as the console's rows count them:
// pod-template-hash → DESIRED, CUR, READY, AVAIL.
func apiRows(ctx context.Context, admin kubernetes.Interface, namespace string) (map[string][4]int, error) {
	list, err := admin.AppsV1().ReplicaSets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	rows := map[string][4]int{}
	for _, rs := range list.Items {
		rows[rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey]] = rsCounts(&rs)
	}
	return rows, nil
}

// rsCounts are a ReplicaSet's row as the consoles show it: desired,
// current, ready, available.
func rsCounts(rs *appsv1.ReplicaSet) [4]int {
	return [4]int{int(*rs.Spec.Replicas), int(rs.Status.Replicas), int(rs.Status.ReadyReplicas), int(rs.Status.AvailableReplicas)}
}

// listTime is how long the API takes to list the namespace's pods in pages
// of 500, as a console's first list reads them: what "a complete first
// screen within 3 s of the API's list" is measured against.
func listTime(ctx context.Context, admin kubernetes.Interface, namespace string) (time.Duration, int, error) {
	start, n, opts := time.Now(), 0, metav1.ListOptions{Limit: 500}
	for {
		page, err := admin.CoreV1().Pods(namespace).List(ctx, opts)
		if err != nil {
			return 0, 0, fmt.Errorf("listing the pods: %w", err)
		}
		n += len(page.Items)
		if opts.Continue = page.Continue; opts.Continue == "" {
			return time.Since(start), n, nil
		}
	}
}

// until polls check every 50 ms for at most limit.
func until(ctx context.Context, limit time.Duration, what string, check func() (bool, error)) error {
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		ok, err := check()
		if ok {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("gave up waiting for %s after %s (last error: %v)", what, limit, last)
}
