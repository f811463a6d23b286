package argo_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"rollscope/model/argo"
)

func served(t *testing.T, manifest string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(manifest), &u.Object); err != nil {
		t.Fatal(err)
	}
	return u
}

const rolloutOnV3 = `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: checkout, namespace: shop, uid: ro-uid}
spec:
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      initContainers: [{name: migrate, image: "shop/migrate:v3"}]
      containers: [{name: app, image: "shop/checkout:v3"}, {name: proxy, image: "envoy:1"}]
  strategy: {canary: {steps: [{setWeight: 20}, {pause: {}}]}}
`

// replicaSet is revision rev of the Rollout with uid owner, running image.
func replicaSet(owner types.UID, rev, image string) appsv1.ReplicaSet {
	yes := true
	rs := appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{
		Name: "checkout-" + rev, Namespace: "shop",
		Annotations:     map[string]string{argo.RevisionAnnotation: rev},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout", Name: "checkout", UID: owner, Controller: &yes}},
	}}
	rs.Spec.Template = corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "checkout", argo.PodTemplateHashLabel: "h" + rev}},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{Name: "migrate", Image: "shop/migrate:" + image}},
			Containers:     []corev1.Container{{Name: "app", Image: "shop/checkout:" + image}, {Name: "proxy", Image: "envoy:1"}},
		},
	}
	return rs
}

// The undo patch is the plugin's: a JSON patch replacing spec.template with
// the revision's ReplicaSet's template, its hash label removed.
func TestUndoReplacesTheTemplateWithTheRevisionsReplicaSets(t *testing.T) {
	ro := served(t, rolloutOnV3)
	rss := []appsv1.ReplicaSet{replicaSet("ro-uid", "1", "v1"), replicaSet("ro-uid", "2", "v2"), replicaSet("ro-uid", "3", "v3"),
		replicaSet("someone-else", "9", "v9")}
	u, err := argo.UndoTo(ro, rss, 1)
	if err != nil {
		t.Fatal(err)
	}
	tpl := rss[0].Spec.Template.DeepCopy()
	delete(tpl.Labels, argo.PodTemplateHashLabel)
	want, _ := json.Marshal([]any{map[string]any{"op": "replace", "path": "/spec/template", "value": tpl}})
	if string(u.Patch) != string(want) || u.Revision != 1 || u.Ref != nil {
		t.Errorf("undo to 1 = %+v\nwant patch %s", u, want)
	}
	if strings.Contains(string(u.Patch), argo.PodTemplateHashLabel) || !strings.Contains(string(u.Patch), "shop/checkout:v1") {
		t.Errorf("the patch keeps the hash label or lacks revision 1's image: %s", u.Patch)
	}
	// 0 is the revision before the newest, as the plugin reads it.
	if u, err := argo.UndoTo(ro, rss, 0); err != nil || u.Revision != 2 {
		t.Errorf("undo to 0 = %+v, %v; want revision 2", u, err)
	}
}

// Bad input is one clear line and nothing to send: a revision the Rollout
// does not have (another's ReplicaSet does not count), the revision it
// already runs.
func TestUndoRefusesAMissingOrCurrentRevision(t *testing.T) {
	ro := served(t, rolloutOnV3)
	rss := []appsv1.ReplicaSet{replicaSet("ro-uid", "2", "v2"), replicaSet("ro-uid", "3", "v3"), replicaSet("someone-else", "9", "v9")}
	for _, tc := range []struct {
		to       int64
		rss      []appsv1.ReplicaSet
		want     string
		noChange bool
	}{
		{to: 7, rss: rss, want: "rollout/checkout has no revision 7 (revisions: 2, 3)"},
		{to: 9, rss: rss, want: "rollout/checkout has no revision 9 (revisions: 2, 3)"},
		{to: 0, rss: rss[1:2], want: "rollout/checkout has no revision before its newest to go back to (revisions: 3)"},
		{to: 3, rss: rss, want: "rollout/checkout: skipped rollback (current template already matches revision 3)", noChange: true},
	} {
		u, err := argo.UndoTo(ro, tc.rss, tc.to)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || u.Patch != nil || errors.Is(err, argo.ErrNoChange) != tc.noChange {
			t.Errorf("undo to %d = %+v, %v; want %q", tc.to, u, err, tc.want)
		}
	}
}

// A Rollout with a workloadRef has no template of its own: the patch goes
// to the Deployment it names.
func TestUndoOfAWorkloadRefRolloutPatchesItsDeployment(t *testing.T) {
	ro := served(t, `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: checkout, namespace: shop, uid: ro-uid}
spec:
  selector: {matchLabels: {app: checkout}}
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: checkout-template}
`)
	u, err := argo.UndoTo(ro, []appsv1.ReplicaSet{replicaSet("ro-uid", "1", "v1"), replicaSet("ro-uid", "2", "v2")}, 1)
	if err != nil || u.Ref == nil || u.Ref.Kind != "Deployment" || u.Ref.Name != "checkout-template" {
		t.Errorf("undo = %+v, %v; want the patch on deployment checkout-template", u, err)
	}
	if d, ok, err := argo.ImageTarget(ro); !ok || d != "checkout-template" || err != nil {
		t.Errorf("set image goes to %q, %v, %v; want the Deployment", d, ok, err)
	}
}

// Set image changes every list the plugin looks in, all of them for "*",
// and refuses a container the Rollout lacks, naming the ones it has.
func TestSetImageChangesTheNamedContainers(t *testing.T) {
	ro := served(t, rolloutOnV3)
	images := func(u *unstructured.Unstructured) string {
		var out []string
		for _, list := range []string{"initContainers", "containers"} {
			cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", list)
			for _, c := range cs {
				out = append(out, c.(map[string]any)["name"].(string)+"="+c.(map[string]any)["image"].(string))
			}
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct{ container, want string }{
		{"app", "migrate=shop/migrate:v3 app=shop/checkout:v4 proxy=envoy:1"},
		{"migrate", "migrate=shop/checkout:v4 app=shop/checkout:v3 proxy=envoy:1"},
		{"*", "migrate=shop/checkout:v4 app=shop/checkout:v4 proxy=shop/checkout:v4"},
	} {
		got, err := argo.SetImage(ro, tc.container, "shop/checkout:v4")
		if err != nil || images(got) != tc.want {
			t.Errorf("set image %s: %s, %v; want %s", tc.container, images(got), err, tc.want)
		}
	}
	if images(ro) != "migrate=shop/migrate:v3 app=shop/checkout:v3 proxy=envoy:1" {
		t.Errorf("set image changed the object it was given: %s", images(ro))
	}
	_, err := argo.SetImage(ro, "web", "shop/checkout:v4")
	if err == nil || err.Error() != `rollout/checkout has no container "web" (containers: migrate, app, proxy)` {
		t.Errorf("set image of a missing container: %v", err)
	}
}

// The ReplicaSets are listed with the Rollout's own selector.
func TestReplicaSetSelectorIsTheRollouts(t *testing.T) {
	ro := served(t, `
metadata: {name: checkout}
spec:
  selector:
    matchLabels: {app: checkout}
    matchExpressions: [{key: tier, operator: In, values: [web]}]
`)
	if got, err := argo.ReplicaSetSelector(ro); err != nil || got != "app=checkout,tier in (web)" {
		t.Errorf("selector %q, %v", got, err)
	}
}
