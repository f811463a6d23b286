package play_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/engine/play"
)

// A scenario that declares a namespace the cluster already has — its own,
// or "default" — runs on that namespace with the declared labels and
// annotations, as `kubectl apply` would leave it.
func TestScenarioDeclaringExistingNamespacesRuns(t *testing.T) {
	c, _ := simulate(t, "own-namespace.yaml")
	ctx := context.Background()
	web, err := c.Client.AppsV1().Deployments("shop").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || web.Status.AvailableReplicas != 2 {
		t.Fatalf("deployment shop/web at the end: %v, err %v; want 2 available", web.Status, err)
	}
	shop, err := c.Client.CoreV1().Namespaces().Get(ctx, "shop", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if shop.Labels["team"] != "payments" || shop.Annotations["owner"] != "alice" {
		t.Errorf("namespace shop has labels %v, annotations %v; want the declared team=payments, owner=alice", shop.Labels, shop.Annotations)
	}
	def, err := c.Client.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if def.Labels["env"] != "test" {
		t.Errorf("namespace default has labels %v; want the declared env=test", def.Labels)
	}
}

// What cannot be created is named by its kind as a manifest names it,
// never by a Go type.
func TestCreateErrorsNameKindsNotGoTypes(t *testing.T) {
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "shop"}}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "shop"}}
	for _, tc := range []struct {
		objs []runtime.Object
		want string
	}{
		{[]runtime.Object{cm, cm}, `scenario s: cannot create ConfigMap "c": `},
		{[]runtime.Object{secret}, `scenario s: cannot create Secret "s": Secret objects are not supported in scenarios`},
	} {
		err := play.CreateAll(ctx, fake.NewClientset(), "s", tc.objs)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "*v1") {
			t.Errorf("err = %v, want it to start %q with no Go type in it", err, tc.want)
		}
	}
	// A namespace declared twice is applied twice, not refused.
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop", Labels: map[string]string{"a": "1"}}}
	ns2 := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop", Labels: map[string]string{"b": "2"}}}
	client := fake.NewClientset()
	if err := play.CreateAll(ctx, client, "s", []runtime.Object{ns, ns2}); err != nil {
		t.Fatal(err)
	}
	got, _ := client.CoreV1().Namespaces().Get(ctx, "shop", metav1.GetOptions{})
	if got.Labels["a"] != "1" || got.Labels["b"] != "2" {
		t.Errorf("labels %v, want a=1 and b=2", got.Labels)
	}
}
