package memapi_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"rollscope/kube/objects"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// rolloutManifest is a canary Rollout as a user writes it, with a status
// that a create must drop (the CRD has the status subresource).
func rolloutManifest(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout",
		"metadata": map[string]any{"name": name, "namespace": "default"},
		"spec": map[string]any{
			"replicas": int64(10),
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "web:1"}}},
			},
			"strategy": map[string]any{"canary": map[string]any{"steps": []any{
				map[string]any{"setWeight": int64(20)}, map[string]any{"pause": map[string]any{}},
			}}},
		},
		"status": map[string]any{"phase": "Healthy"},
	}}
}

func rollouts(t *testing.T, f *fixture) dynamic.ResourceInterface {
	t.Helper()
	d, err := objects.DynamicOf(f.client)
	if err != nil {
		t.Fatalf("the embedded client reaches no custom resources: %v", err)
	}
	return d.Resource(argo.Rollouts).Namespace("default")
}

func TestRolloutsServedAsTheirCRDDeclares(t *testing.T) {
	f := newFixture(t)
	ro := rollouts(t, f)
	created, err := ro.Create(ctx, rolloutManifest("web"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.GetAPIVersion() != "argoproj.io/v1alpha1" || created.GetKind() != "Rollout" {
		t.Errorf("created object reads as %s %s, want argoproj.io/v1alpha1 Rollout", created.GetAPIVersion(), created.GetKind())
	}
	if _, has := created.Object["status"]; has {
		t.Errorf("a create kept the status the request carried: %v", created.Object["status"])
	}
	if created.GetGeneration() != 1 || created.GetResourceVersion() == "" || created.GetUID() == "" {
		t.Errorf("generation %d, resourceVersion %q, uid %q: want 1 and both set", created.GetGeneration(), created.GetResourceVersion(), created.GetUID())
	}

	// The plugin's abort: a merge patch of the status subresource.
	got, err := ro.Patch(ctx, "web", types.MergePatchType, []byte(`{"status":{"abort":true}}`), metav1.PatchOptions{}, "status")
	if err != nil {
		t.Fatal(err)
	}
	if abort, _, _ := unstructured.NestedBool(got.Object, "status", "abort"); !abort || got.GetGeneration() != 1 {
		t.Errorf("after the status patch: abort %v generation %d, want true and 1", abort, got.GetGeneration())
	}
	// The plugin's pause: a merge patch of the spec, which keeps the status.
	got, err = ro.Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"paused":true},"status":{"abort":false}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	paused, _, _ := unstructured.NestedBool(got.Object, "spec", "paused")
	abort, _, _ := unstructured.NestedBool(got.Object, "status", "abort")
	if !paused || !abort || got.GetGeneration() != 2 {
		t.Errorf("after the spec patch: paused %v abort %v generation %d, want true, true (status kept) and 2", paused, abort, got.GetGeneration())
	}
	// A status write takes nothing but the status.
	got.Object["spec"].(map[string]any)["replicas"] = int64(1)
	_ = unstructured.SetNestedField(got.Object, "abc", "status", "stableRS")
	got, err = ro.UpdateStatus(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); n != 10 {
		t.Errorf("a status write changed spec.replicas to %d", n)
	}
	if s, _, _ := unstructured.NestedString(got.Object, "status", "stableRS"); s != "abc" {
		t.Errorf("status.stableRS = %q after the status write, want abc", s)
	}

	// `kubectl scale rollout`: a patch of the scale subresource.
	scale, err := ro.Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{}, "scale")
	if err != nil {
		t.Fatal(err)
	}
	if scale.GetKind() != "Scale" {
		t.Errorf("the scale patch answered a %q, want a Scale", scale.GetKind())
	}
	got, _ = ro.Get(ctx, "web", metav1.GetOptions{})
	if n, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); n != 3 || got.GetGeneration() != 3 {
		t.Errorf("after the scale: replicas %d generation %d, want 3 and 3", n, got.GetGeneration())
	}

	// Through kube/objects' row, typed, as every layer reads it.
	row, _ := objects.For(kind.Rollout)
	w, err := row.Get(ctx, f.client, "default", "web")
	if err != nil {
		t.Fatal(err)
	}
	if r := w.Object().(*argo.Rollout); r.Status.StableRS != "abc" || len(r.Spec.Strategy.Canary.Steps) != 2 {
		t.Errorf("the row reads stableRS %q and %d steps, want abc and 2", r.Status.StableRS, len(r.Spec.Strategy.Canary.Steps))
	}

	if _, err := ro.Get(ctx, "nope", metav1.GetOptions{}); !apierrors.IsNotFound(err) || err.Error() != `rollouts.argoproj.io "nope" not found` {
		t.Errorf("get of a missing rollout: %v", err)
	}
}

func TestAnalysisRunsHaveNoStatusSubresource(t *testing.T) {
	f := newFixture(t)
	d, _ := objects.DynamicOf(f.client)
	runs := d.Resource(argo.AnalysisRuns).Namespace("default")
	run := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "AnalysisRun", "metadata": map[string]any{"name": "r"},
		"spec": map[string]any{"metrics": []any{}}, "status": map[string]any{"phase": "Running"},
	}}
	got, err := runs.Create(ctx, run, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p, _, _ := unstructured.NestedString(got.Object, "status", "phase"); p != "Running" {
		t.Errorf("the created AnalysisRun's phase is %q: without a status subresource the create keeps it", p)
	}
	_ = unstructured.SetNestedField(got.Object, "Successful", "status", "phase")
	if got, err = runs.Update(ctx, got, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := unstructured.NestedString(got.Object, "status", "phase"); p != "Successful" || got.GetGeneration() != 2 {
		t.Errorf("after an update: phase %q generation %d, want Successful and 2", p, got.GetGeneration())
	}
	if _, err := runs.Create(ctx, rolloutManifest("x"), metav1.CreateOptions{}); !apierrors.IsBadRequest(err) {
		t.Errorf("a Rollout sent as an AnalysisRun: %v, want a bad request", err)
	}
}

func TestRolloutsAreWatchedListedAndDiscovered(t *testing.T) {
	f := newFixture(t)
	ro := rollouts(t, f)
	w, err := ro.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	created, err := ro.Create(ctx, rolloutManifest("web"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ro.Patch(ctx, "web", types.MergePatchType, []byte(`{"status":{"phase":"Paused"}}`), metav1.PatchOptions{}, "status"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []watch.EventType{watch.Added, watch.Modified} {
		if ev := <-w.ResultChan(); ev.Type != want || ev.Object.(*unstructured.Unstructured).GetName() != "web" {
			t.Errorf("watch event %s %v, want %s of web", ev.Type, ev.Object, want)
		}
	}
	list, err := ro.List(ctx, metav1.ListOptions{LabelSelector: ""})
	if err != nil || len(list.Items) != 1 || list.Items[0].GetName() != "web" {
		t.Fatalf("list: %v %v", list, err)
	}

	resources, err := f.client.Discovery().ServerResourcesForGroupVersion("argoproj.io/v1alpha1")
	if err != nil {
		t.Fatal(err)
	}
	served := map[string][]string{}
	for _, r := range resources.APIResources {
		served[r.Name] = r.ShortNames
	}
	for _, name := range []string{"rollouts", "rollouts/status", "rollouts/scale", "analysisruns", "analysistemplates"} {
		if _, ok := served[name]; !ok {
			t.Errorf("discovery does not list %s: %v", name, served)
		}
	}
	if got := served["rollouts"]; len(got) != 1 || got[0] != "ro" {
		t.Errorf("rollouts' short names %v, want [ro]", got)
	}

	// A ReplicaSet the Rollout owns goes with it, as the garbage collector
	// removes it.
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-abc", Namespace: "default", Labels: labelsOf("web"),
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout", Name: "web", UID: created.GetUID(), Controller: ptr(true)}}},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labelsOf("web")}, Template: podTemplate("web", "web:1")}}
	if _, err := f.client.AppsV1().ReplicaSets("default").Create(ctx, rs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ro.Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client.AppsV1().ReplicaSets("default").Get(ctx, "web-abc", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the Rollout's ReplicaSet outlived it: %v", err)
	}
}
