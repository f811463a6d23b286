package live

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/drain"
	"rollscope/model"
)

// What the console asks of a live cluster is carried out by the
// controllers it starts: a drain requested on a node with no pods ends
// drained and cordoned, and stop returns once they have ended.
func TestConsoleControllersCarryOutADrain(t *testing.T) {
	client := fake.NewClientset(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	stop, err := StartConsoleControllers(ctx, client, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := drain.Request(ctx, client, "n1", drain.Options{}); err != nil {
		t.Fatal(err)
	}
	for {
		n, err := client.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if n.Annotations[model.DrainStateAnnotation] == model.DrainDrained && n.Spec.Unschedulable {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the drain never finished: %v", n.Annotations)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
