package watch_test

import (
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/kube/memapi"
	"rollscope/kube/objects"
	"rollscope/kube/watch"
	"rollscope/model/argo"
	"rollscope/model/cluster"
)

// argoServed is discovery that serves Argo's Rollouts and AnalysisRuns.
var argoServed = []*metav1.APIResourceList{{GroupVersion: "argoproj.io/v1alpha1", APIResources: []metav1.APIResource{
	{Name: "rollouts", Namespaced: true, Kind: "Rollout", ShortNames: []string{"ro"}},
	{Name: "analysisruns", Namespaced: true, Kind: "AnalysisRun"},
}}}

// withDiscovery is the embedded API answering discovery as a cluster with
// Argo's CRDs installed does.
type withDiscovery struct {
	kubernetes.Interface
	d discovery.DiscoveryInterface
}

func (w withDiscovery) Discovery() discovery.DiscoveryInterface { return w.d }

func argoDynamic(t *testing.T) *dynamicfake.FakeDynamicClient {
	d := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		argo.Rollouts: "RolloutList", argo.AnalysisRuns: "AnalysisRunList"})
	for gvr, obj := range map[schema.GroupVersionResource]map[string]any{
		argo.Rollouts:     {"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "metadata": map[string]any{"name": "checkout", "namespace": "default"}, "spec": map[string]any{"strategy": map[string]any{"canary": map[string]any{}}}},
		argo.AnalysisRuns: {"apiVersion": "argoproj.io/v1alpha1", "kind": "AnalysisRun", "metadata": map[string]any{"name": "checkout-1", "namespace": "default"}},
	} {
		must(d.Resource(gvr).Namespace("default").Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{}))(t)
	}
	return d
}

// A cluster that serves Argo's CRDs has its Rollouts and AnalysisRuns
// watched, typed, beside the built-in kinds.
func TestRolloutsAndAnalysisRunsAreWatchedWhereServed(t *testing.T) {
	api := memapi.New(memapi.Options{}).Client()
	client := objects.WithDynamic(withDiscovery{api, &fakediscovery.FakeDiscovery{Fake: &k8stesting.Fake{Resources: argoServed}}}, argoDynamic(t))
	r := run(t, client, watch.Scope{}, watch.Options{})
	eventually(t, "the Rollout and its AnalysisRun", func() bool {
		ro, _ := r.find(cluster.ObjectRef{Kind: "other", Namespace: "default", Name: "checkout"})
		run, _ := r.find(cluster.ObjectRef{Kind: "other", Namespace: "default", Name: "checkout-1"})
		_, typed := ro.(*argo.Rollout)
		_, typedRun := run.(*argo.AnalysisRun)
		return typed && typedRun
	})
	if b, _ := r.snapshot(); !b[len(b)-1].Watch.Synced || b[len(b)-1].Watch.Problem != "" {
		t.Errorf("watch status %+v", b[len(b)-1].Watch)
	}
}

// The embedded cluster serves Argo's kinds: its Rollouts are watched as a
// live cluster's are, through its own dynamic client.
func TestTheEmbeddedClustersRolloutsAreWatched(t *testing.T) {
	api := memapi.New(memapi.Options{}).Client()
	dyn, err := objects.DynamicOf(api)
	if err != nil {
		t.Fatal(err)
	}
	rollout := map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "metadata": map[string]any{"name": "checkout"},
		"spec": map[string]any{"strategy": map[string]any{"canary": map[string]any{}}}}
	must(dyn.Resource(argo.Rollouts).Namespace("default").Create(ctx, &unstructured.Unstructured{Object: rollout}, metav1.CreateOptions{}))(t)
	r := run(t, api, watch.Scope{}, watch.Options{})
	eventually(t, "the embedded cluster's Rollout", func() bool {
		ro, _ := r.find(cluster.ObjectRef{Kind: "other", Namespace: "default", Name: "checkout"})
		_, typed := ro.(*argo.Rollout)
		return typed
	})
	if b, _ := r.snapshot(); b[len(b)-1].Watch.Problem != "" {
		t.Errorf("watch status %+v", b[len(b)-1].Watch)
	}
}

// A cluster without the CRD is not asked for Rollouts at all: no error on
// the screen, no reflector listing them again and again.
func TestAClusterWithoutArgoIsNotAskedForRollouts(t *testing.T) {
	d := argoDynamic(t)
	d.ClearActions()
	api := withDiscovery{memapi.New(memapi.Options{}).Client(), &fakediscovery.FakeDiscovery{Fake: &k8stesting.Fake{}}}
	r := run(t, objects.WithDynamic(api, d), watch.Scope{}, watch.Options{})
	eventually(t, "a synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 && b[0].Watch.Synced })
	if b, _ := r.snapshot(); b[0].Watch.Problem != "" || b[0].Watch.Forbidden != "" {
		t.Errorf("watch status %+v; want no problem", b[0].Watch)
	}
	if got := d.Actions(); len(got) != 0 {
		t.Errorf("the dynamic client was asked %v", got)
	}
}

// A user who may not list Rollouts is not shown a refusal for them.
func TestServesAsksDiscoveryAndAccess(t *testing.T) {
	for _, c := range []struct {
		name      string
		resources []*metav1.APIResourceList
		allowed   bool
		want      bool
	}{
		{"served and allowed", argoServed, true, true},
		{"served, not allowed", argoServed, false, false},
		{"not served", nil, true, false},
	} {
		client := fake.NewClientset()
		client.Resources = c.resources
		client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
			return true, &authorizationv1.SelfSubjectAccessReview{Status: authorizationv1.SubjectAccessReviewStatus{Allowed: c.allowed}}, nil
		})
		if got := watch.Serves(ctx, client, argo.Rollouts, "shop"); got != c.want {
			t.Errorf("%s: Serves = %v, want %v", c.name, got, c.want)
		}
	}
}
