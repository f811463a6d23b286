package control

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// A kept client writes into its own namespace, whichever was asked first,
// and is built once per namespace.
func TestNamespacedKeepsOneClientPerNamespace(t *testing.T) {
	client := fake.NewClientset()
	built := 0
	pods := NewNamespaced(func(ns string) corev1client.PodInterface {
		built++
		return client.CoreV1().Pods(ns)
	})
	ctx := context.Background()
	for i, ns := range []string{"a", "b", "a", "b", "a"} {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%d", i)}}
		if _, err := pods.In(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if built != 2 {
		t.Errorf("built %d clients for two namespaces, want 2", built)
	}
	for ns, want := range map[string]int{"a": 3, "b": 2} {
		list, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != want {
			t.Errorf("namespace %s has %d pods, want %d", ns, len(list.Items), want)
		}
	}
}
