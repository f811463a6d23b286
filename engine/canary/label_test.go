package canary

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/model"
)

// A canary an earlier rollscope left carries its annotations without the
// label consoles now find canaries by: a console labels it, and only it —
// a canary already labelled and a Deployment without a canary are left
// as they are.
func TestConsolesLabelTheCanariesAnEarlierRollscopeLeft(t *testing.T) {
	earlier := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "api", Namespace: "shop"}}
	(model.Canary{}).Write(&earlier.ObjectMeta)
	delete(earlier.Labels, model.CanaryLabel)
	labelled := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}
	(model.Canary{}).Write(&labelled.ObjectMeta)
	plain := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "data", Labels: map[string]string{"app": "db"}}}
	client := fake.NewClientset(earlier, labelled, plain)

	n, err := LabelEarlierCanaries(context.Background(), client, "")
	if err != nil || n != 1 {
		t.Fatalf("labelled %d (%v), want the one canary without its label", n, err)
	}
	got, _ := client.AppsV1().Deployments("shop").Get(context.Background(), "api", metav1.GetOptions{})
	if got.Labels[model.CanaryLabel] == "" || !model.HasCanaryAnnotations(got) {
		t.Errorf("the earlier canary now carries labels %v, annotations %v", got.Labels, got.Annotations)
	}
	if got, _ := client.AppsV1().Deployments("data").Get(context.Background(), "db", metav1.GetOptions{}); len(got.Labels) != 1 {
		t.Errorf("a Deployment without a canary was labelled: %v", got.Labels)
	}
	patches := 0
	for _, a := range client.Actions() {
		if a.GetVerb() == "patch" {
			patches++
		}
	}
	if patches != 1 {
		t.Errorf("%d patches, want only the unlabelled canary's", patches)
	}
}
