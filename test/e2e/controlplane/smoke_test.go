package controlplane_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/model"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/e2etest"
)

// TestDeploymentRollsOutOnHollowNodes is the smoke test of the live setup:
// the real controller manager turns a Deployment into a ReplicaSet and pods,
// the real scheduler binds them to hollow nodes, rollscope's simulated
// kubelet makes them ready, and the Deployment becomes available. The
// view-only user can read all of it and write none of it.
func TestDeploymentRollsOutOnHollowNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real control plane")
	}
	cp := controlplane.StartForTest(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	admin := clientFromKubeconfig(t, cp.AdminKubeconfig)
	viewer := clientFromKubeconfig(t, cp.ViewerKubeconfig)

	nodes := live.Nodes{
		Groups: []nodegroup.Group{{
			Name:     "hollow",
			Size:     2,
			Spec:     "v1",
			BootTime: time.Second,
			Capacity: corev1.ResourceList{
				corev1.ResourcePods:   resource.MustParse("110"),
				corev1.ResourceCPU:    resource.MustParse("4"),
				corev1.ResourceMemory: resource.MustParse("8Gi"),
			},
		}},
		Images:  []kubelet.ImageRule{{Match: "*", Pull: 500 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 300 * time.Millisecond}},
		OnError: func(c, key string, err error) { t.Logf("hollow %s %s: %v", c, key, err) },
	}
	e2etest.RunHollowNodes(t, admin, nodes)

	phase := time.Now()
	waitFor(ctx, t, "two Ready hollow nodes without the not-ready taint", func() (bool, string, error) {
		list, err := admin.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		var ready []string
		for _, n := range list.Items {
			if model.NodeReady(&n) && !e2etest.HasTaint(&n, corev1.TaintNodeNotReady) && !n.Status.Capacity.Pods().IsZero() {
				ready = append(ready, n.Name)
			}
		}
		return len(ready) == 2, fmt.Sprintf("%d nodes, ready and untainted: %v", len(list.Items), ready), nil
	})

	t.Logf("hollow nodes ready in %s", time.Since(phase).Round(time.Millisecond))
	phase = time.Now()

	const ns = "smoke"
	if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating namespace %s: %v", ns, err)
	}
	deploy := e2etest.Deployment(ns, "web", 3, "registry.example/web:v1")
	deploy.Spec.Template.Spec.Containers[0].Name = "web"
	if _, err := admin.AppsV1().Deployments(ns).Create(ctx, deploy, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment %s/web: %v", ns, err)
	}

	waitFor(ctx, t, "the deployment to be available with 3 ready replicas", func() (bool, string, error) {
		d, err := admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return d.Status.ReadyReplicas == 3 && d.Status.AvailableReplicas == 3 && d.Status.UpdatedReplicas == 3,
			fmt.Sprintf("status %+v", d.Status), nil
	})

	t.Logf("deployment of 3 available in %s", time.Since(phase).Round(time.Millisecond))

	rsList, err := admin.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing replica sets: %v", err)
	}
	if len(rsList.Items) != 1 || rsList.Items[0].Annotations["deployment.kubernetes.io/revision"] != "1" {
		t.Fatalf("want one replica set at revision 1 made by the controller manager, got %d: %+v", len(rsList.Items), rsList.Items)
	}
	pods, err := admin.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing pods: %v", err)
	}
	for _, p := range pods.Items {
		if !strings.HasPrefix(p.Spec.NodeName, "hollow-") || p.Status.Phase != corev1.PodRunning {
			t.Errorf("pod %s: node %q phase %s, want bound to a hollow node and Running", p.Name, p.Spec.NodeName, p.Status.Phase)
		}
	}

	// The view-only user reads everything rollscope watches...
	if _, err := viewer.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{}); err != nil {
		t.Errorf("viewer reading the deployment: %v", err)
	}
	if _, err := viewer.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("viewer listing nodes: %v", err)
	}
	// ...and every write is refused with 403 Forbidden.
	writes := map[string]func() error{
		"scale the deployment": func() error {
			_, err := viewer.AppsV1().Deployments(ns).UpdateScale(ctx, "web", &autoscalingv1.Scale{
				ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
				Spec:       autoscalingv1.ScaleSpec{Replicas: 5},
			}, metav1.UpdateOptions{})
			return err
		},
		"delete a pod": func() error {
			return viewer.CoreV1().Pods(ns).Delete(ctx, pods.Items[0].Name, metav1.DeleteOptions{})
		},
		"cordon a node": func() error {
			_, err := viewer.CoreV1().Nodes().Patch(ctx, "hollow-0", "application/merge-patch+json", []byte(`{"spec":{"unschedulable":true}}`), metav1.PatchOptions{})
			return err
		},
	}
	for what, write := range writes {
		if err := write(); !apierrors.IsForbidden(err) {
			t.Errorf("viewer trying to %s: got %v, want 403 Forbidden", what, err)
		}
	}

	// The API server goes away and comes back on the same port: the data is
	// in etcd, and the controller manager, the scheduler and the hollow nodes
	// reconnect by themselves and carry on with a scale-up.
	phase = time.Now()
	cp.StopAPIServer()
	t.Logf("API server stopped in %s", time.Since(phase).Round(time.Millisecond))
	phase = time.Now()
	if _, err := admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{}); err == nil {
		t.Fatal("reading the deployment with the API server stopped succeeded; want a connection error")
	}
	if err := cp.StartAPIServer(ctx); err != nil {
		t.Fatalf("restarting the API server: %v", err)
	}
	t.Logf("API server restarted in %s", time.Since(phase).Round(time.Millisecond))
	phase = time.Now()
	scale, err := admin.AppsV1().Deployments(ns).GetScale(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading the deployment's scale after the restart: %v", err)
	}
	scale.Spec.Replicas = 4
	if _, err := admin.AppsV1().Deployments(ns).UpdateScale(ctx, "web", scale, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("scaling to 4 after the restart: %v", err)
	}
	waitFor(ctx, t, "4 ready replicas after the API server restart", func() (bool, string, error) {
		d, err := admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return d.Status.ReadyReplicas == 4 && d.Status.AvailableReplicas == 4, fmt.Sprintf("status %+v", d.Status), nil
	})
	t.Logf("scaled to 4 after the restart in %s", time.Since(phase).Round(time.Millisecond))
}

func clientFromKubeconfig(t *testing.T, path string) kubernetes.Interface {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("kubeconfig %s: %v", path, err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatalf("loading kubeconfig %s: %v", path, err)
	}
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("client from %s: %v", path, err)
	}
	return c
}

// waitFor polls cond until it holds, failing the test with cond's last
// description when ctx ends first.
func waitFor(ctx context.Context, t *testing.T, what string, cond func() (bool, string, error)) {
	t.Helper()
	last := ""
	err := wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(context.Context) (bool, error) {
		ok, state, err := cond()
		if err != nil {
			last = err.Error()
			return false, nil
		}
		last = state
		return ok, nil
	})
	if err != nil {
		t.Fatalf("waiting for %s: %v; last seen: %s", what, err, last)
	}
}
