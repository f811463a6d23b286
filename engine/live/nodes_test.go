package live

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/kubelet"
	"rollscope/engine/nodegroup"
)

// TestNodesRunPodsBoundToThem drives the hollow nodes through the runner
// against client-go's fake clientset: the group's nodes appear Ready with
// capacity, a pod bound to one of them becomes Running and Ready, a pod bound
// to a node of someone else is left alone, and Delete removes the nodes.
func TestNodesRunPodsBoundToThem(t *testing.T) {
	client := fake.NewClientset()
	nodes := Nodes{
		Groups: []nodegroup.Group{{
			Name:     "hollow",
			Size:     2,
			Spec:     "v1",
			Capacity: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("10")},
		}},
		Images:  []kubelet.ImageRule{{Match: "*", Pull: 10 * time.Millisecond, Start: 10 * time.Millisecond, Ready: 10 * time.Millisecond}},
		OnError: func(c, key string, err error) { t.Logf("%s %s: %v", c, key, err) },
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- nodes.Run(runCtx, client) }()
	stopNodes := sync.OnceValue(func() error { stop(); return <-done })
	defer func() {
		if err := stopNodes(); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()

	poll(ctx, t, "two Ready nodes with capacity", func() (bool, string) {
		list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		ready := 0
		for _, n := range list.Items {
			for _, c := range n.Status.Conditions {
				if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue && !n.Status.Capacity.Pods().IsZero() {
					ready++
				}
			}
		}
		return ready == 2, fmt.Sprintf("%d nodes, %d ready", len(list.Items), ready)
	})

	for name, node := range map[string]string{"ours": "hollow-0", "theirs": "real-node"} {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
			Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "app", Image: "registry.example/app:v1"}}},
		}
		if _, err := client.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	poll(ctx, t, "the pod on the hollow node Running and Ready", func() (bool, string) {
		p, err := client.CoreV1().Pods("default").Get(ctx, "ours", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return p.Status.Phase == corev1.PodRunning && podReady(p), fmt.Sprintf("phase %q conditions %v", p.Status.Phase, p.Status.Conditions)
	})
	theirs, err := client.CoreV1().Pods("default").Get(ctx, "theirs", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if theirs.Status.Phase != "" {
		t.Errorf("the pod on a node the hollow kubelets do not serve got phase %q", theirs.Status.Phase)
	}

	if err := stopNodes(); err != nil {
		t.Errorf("Run: %v", err)
	}
	if err := nodes.Delete(ctx, client); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 0 {
		t.Errorf("%d nodes left after Delete", len(list.Items))
	}
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func poll(ctx context.Context, t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	last := ""
	err := wait.PollUntilContextCancel(ctx, 10*time.Millisecond, true, func(context.Context) (bool, error) {
		ok, state := cond()
		last = state
		return ok, nil
	})
	if err != nil {
		t.Fatalf("waiting for %s: %v; last seen: %s", what, err, last)
	}
}
