package objects_test

import (
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/kube/memapi"
	"rollscope/kube/objects"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

func argoClient() (objects.Dynamic, *dynamicfake.FakeDynamicClient) {
	d := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		argo.Rollouts: "RolloutList", argo.AnalysisRuns: "AnalysisRunList",
	})
	return objects.WithDynamic(fake.NewClientset(), d), d
}

func canary() *argo.Rollout {
	weight := int32(20)
	return &argo.Rollout{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "checkout"},
		Spec: argo.RolloutSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "checkout"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "checkout"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "shop/checkout:v1"}}}},
			Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{Steps: []argo.CanaryStep{{SetWeight: &weight}, {Pause: &argo.RolloutPause{}}}}},
		},
	}
}

// A Rollout is created, got, listed, watched, patched (its spec and its
// status, as Argo's plugin patches them) and deleted through the
// connection's dynamic client, and every layer reads it typed.
func TestTheRolloutRowReachesRolloutsThroughTheDynamicClient(t *testing.T) {
	ctx := context.Background()
	c, d := argoClient()
	row, ok := objects.For(kind.Rollout)
	if !ok {
		t.Fatal("no row for Rollouts")
	}
	if err := row.Create(ctx, c, canary()); err != nil {
		t.Fatal(err)
	}
	w, err := row.ListWatch(c, "shop").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := row.Patch(ctx, c, "shop", "checkout", types.MergePatchType, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"shop/checkout:v2"}]}}}}`)); err != nil {
		t.Fatal(err)
	}
	e := <-w.ResultChan()
	if e.Type == watch.Added { // the fake's watch first replays what it holds
		e = <-w.ResultChan()
	}
	if r, ok := e.Object.(*argo.Rollout); !ok || e.Type != watch.Modified || r.Spec.Template.Spec.Containers[0].Image != "shop/checkout:v2" {
		t.Fatalf("watched %s %T %+v; want the patched Rollout", e.Type, e.Object, e.Object)
	}
	var patched []string
	for _, a := range d.Actions() {
		if p, ok := a.(k8stesting.PatchAction); ok {
			patched = append(patched, p.GetSubresource())
		}
	}
	if len(patched) != 1 || patched[0] != "" {
		t.Errorf("patches sent to subresources %q; want the Rollout itself", patched)
	}
	got, err := row.Get(ctx, c, "shop", "checkout")
	if err != nil || got.Kind() != kind.Rollout || got.Template().Spec.Containers[0].Image != "shop/checkout:v2" {
		t.Fatalf("get = %+v, %v", got, err)
	}
	list, err := row.ListWatch(c, "").List(ctx, metav1.ListOptions{})
	if l, ok := list.(*argo.RolloutList); err != nil || !ok || len(l.Items) != 1 || l.Items[0].Name != "checkout" {
		t.Fatalf("list = %T %v, %v", list, list, err)
	}
	if err := row.DeleteAll(ctx, c, "shop", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// AnalysisRuns are listed typed beside the Rollouts they decide.
func TestAnalysisRunsAreListedTyped(t *testing.T) {
	ctx := context.Background()
	c, d := argoClient()
	run := &argo.AnalysisRun{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "checkout-7f9-2"},
		Status: argo.AnalysisRunStatus{Phase: argo.AnalysisPhaseFailed, MetricResults: []argo.MetricResult{{Name: "error-rate", Failed: 2,
			Measurements: []argo.Measurement{{Phase: argo.AnalysisPhaseFailed, Value: "0.12"}}}}}}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(run)
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "AnalysisRun"}
	for k, v := range u {
		obj[k] = v
	}
	if _, err := d.Resource(argo.AnalysisRuns).Namespace("shop").Create(ctx, unstructuredOf(obj), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	list, err := objects.AnalysisRuns(c, "").List(ctx, metav1.ListOptions{})
	l, ok := list.(*argo.AnalysisRunList)
	if err != nil || !ok || meta.LenList(list) != 1 || l.Items[0].Status.MetricResults[0].Measurements[0].Value != "0.12" {
		t.Fatalf("list = %+v, %v", list, err)
	}
}

// The embedded API serves Argo's kinds: the Rollout row creates and lists
// them there as on a live cluster; a connection without a dynamic client
// says it serves no custom resources rather than pretend an empty list.
func TestTheRolloutRowReachesTheEmbeddedAPI(t *testing.T) {
	row, _ := objects.For(kind.Rollout)
	api := memapi.New(memapi.Options{}).Client()
	ro := &argo.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "checkout", Namespace: "default"}}
	if err := row.Create(context.Background(), api, ro); err != nil {
		t.Fatal(err)
	}
	list, err := row.ListWatch(api, "").List(context.Background(), metav1.ListOptions{})
	if l, ok := list.(*argo.RolloutList); err != nil || !ok || len(l.Items) != 1 || l.Items[0].Name != "checkout" {
		t.Errorf("list on the embedded API: %+v, %v", list, err)
	}
	_, err = row.ListWatch(fake.NewClientset(), "").List(context.Background(), metav1.ListOptions{})
	if !errors.Is(err, objects.ErrNoCustomResources) {
		t.Errorf("list without a dynamic client: %v; want ErrNoCustomResources", err)
	}
	for _, r := range objects.Builtin() {
		if r.Kind == kind.Rollout {
			t.Error("Builtin lists the Rollout row")
		}
	}
}

func unstructuredOf(m map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: m}
}
