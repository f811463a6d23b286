package argo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"sigs.k8s.io/yaml"

	"rollscope/engine/argo"
	"rollscope/kube/objects"
	"rollscope/model/action"
	rules "rollscope/model/argo"
)

var shop = argo.Target{Namespace: "shop", Name: "checkout"}

// cluster is a connection whose API holds the objects, recording every
// request: the dynamic client's (Rollouts, a workloadRef's Deployment)
// and the clientset's (ReplicaSets), in one list.
type cluster struct {
	dyn  *dynamicfake.FakeDynamicClient
	kube *fake.Clientset
	c    kubernetes.Interface
	sent []string
}

func newCluster(t *testing.T, manifests []string, kubeObjects ...runtime.Object) *cluster {
	t.Helper()
	var objs []runtime.Object
	for _, m := range manifests {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(m), &u.Object); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, u)
	}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{rules.Rollouts: "RolloutList", rules.Deployments: "DeploymentList"}, objs...)
	kube := fake.NewSimpleClientset(kubeObjects...)
	c := &cluster{dyn: dyn, kube: kube, c: objects.WithDynamic(kube, dyn)}
	c.record()
	return c
}

// record logs each request, in the order sent.
func (c *cluster) record() {
	log := func(a k8stesting.Action) (bool, runtime.Object, error) {
		c.sent = append(c.sent, line(a))
		return false, nil, nil
	}
	c.dyn.PrependReactor("*", "*", log)
	c.kube.PrependReactor("*", "*", log)
}

// answer makes the dynamic client answer verb on resource with react,
// logging what it answers (what it leaves reaches the log as the others).
func (c *cluster) answer(verb, resource string, react k8stesting.ReactionFunc) {
	c.dyn.PrependReactor(verb, resource, func(a k8stesting.Action) (bool, runtime.Object, error) {
		handled, obj, err := react(a)
		if handled {
			c.sent = append(c.sent, line(a))
		}
		return handled, obj, err
	})
}

// requests are the requests sent, one line each: verb, resource and
// subresource, patch type and body (an update: the images it sends).
func (c *cluster) requests() []string { return c.sent }

func line(a k8stesting.Action) string {
	line := a.GetVerb() + " " + a.GetResource().Resource
	if a.GetSubresource() != "" {
		line += "/" + a.GetSubresource()
	}
	switch a := a.(type) {
	case k8stesting.PatchAction:
		line += " " + string(a.GetPatchType()) + " " + string(a.GetPatch())
	case k8stesting.UpdateAction:
		line += " " + images(a.GetObject().(*unstructured.Unstructured))
	}
	return line
}

func images(u *unstructured.Unstructured) string {
	var out []string
	for _, list := range []string{"initContainers", "containers"} {
		cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", list)
		for _, c := range cs {
			out = append(out, fmt.Sprint(c.(map[string]any)["name"], "=", c.(map[string]any)["image"]))
		}
	}
	return strings.Join(out, " ")
}

func (c *cluster) rollout(t *testing.T) *rules.Rollout {
	t.Helper()
	u, err := c.dyn.Resource(rules.Rollouts).Namespace("shop").Get(context.Background(), "checkout", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := rules.RolloutOf(u)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s sent:\n\t%s\nwant (the plugin's):\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

const (
	merge = "application/merge-patch+json"
	get   = "get rollouts"
)

// A canary at its indefinite pause (step 1 of 4), its update under way.
const awaitingPromotion = `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: checkout, namespace: shop, uid: ro-uid}
spec:
  replicas: 5
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      containers: [{name: app, image: "shop/checkout:v3"}, {name: proxy, image: "envoy:1"}]
  strategy: {canary: {steps: [{setWeight: 20}, {pause: {}}, {setWeight: 50}, {pause: {duration: 1m}}]}}
status:
  currentStepIndex: 1
  currentPodHash: new
  stableRS: old
  controllerPause: true
  pauseConditions: [{reason: CanaryPauseStep, startTime: "2026-12-02T06:00:00Z"}]
`

// withWorkloadRef is a Rollout whose template is Deployment
// checkout-template's.
const withWorkloadRef = `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: checkout, namespace: shop, uid: ro-uid}
spec:
  selector: {matchLabels: {app: checkout}}
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: checkout-template}
`

func with(manifest, status string) string {
	return strings.Replace(manifest, "status:\n", "status:\n"+status, 1)
}

// Each state action sends what the plugin sends, after the one read that
// decides whether it can work; the Rollout ends where the plugin's
// command leaves it.
func TestActionsSendThePluginsRequests(t *testing.T) {
	aborted := with(awaitingPromotion, "  abort: true\n")
	pausedByHand := strings.Replace(awaitingPromotion, "  replicas: 5\n", "  replicas: 5\n  paused: true\n", 1)
	for _, tc := range []struct {
		name     string
		manifest string
		act      func(context.Context, kubernetes.Interface, argo.Target) (string, error)
		want     []string
		says     string
		ends     func(r *rules.Rollout) bool
	}{
		{"promote", awaitingPromotion, argo.Promote.Send,
			[]string{get, "patch rollouts/status " + merge + ` {"status":{"pauseConditions":null}}`},
			"rollout 'checkout' promoted", func(r *rules.Rollout) bool { return len(r.Status.PauseConditions) == 0 }},
		{"promote a Rollout paused by hand", pausedByHand, argo.Promote.Send,
			[]string{get, "patch rollouts/status " + merge + ` {"status":{"pauseConditions":null}}`, "patch rollouts " + merge + ` {"spec":{"paused":false}}`},
			"rollout 'checkout' promoted", func(r *rules.Rollout) bool { return len(r.Status.PauseConditions) == 0 && !r.Spec.Paused }},
		{"promote --full", awaitingPromotion, argo.PromoteFull.Send,
			[]string{get, "patch rollouts/status " + merge + ` {"status":{"promoteFull":true}}`},
			"rollout 'checkout' fully promoted", func(r *rules.Rollout) bool { return r.Status.PromoteFull }},
		{"promote --full of an aborted Rollout", aborted, argo.PromoteFull.Send,
			[]string{get, "patch rollouts/status " + merge + ` {"status":{"promoteFull":true}}`},
			"rollout 'checkout' fully promoted", func(r *rules.Rollout) bool { return r.Status.PromoteFull }},
		{"abort", awaitingPromotion, argo.Abort.Send,
			[]string{get, "patch rollouts/status " + merge + ` {"status":{"abort":true}}`},
			"rollout 'checkout' aborted", func(r *rules.Rollout) bool { return r.Status.Abort }},
		{"retry", aborted, argo.Retry.Send,
			[]string{get, "patch rollouts/status " + merge + ` {"status":{"abort":false}}`},
			"rollout 'checkout' retried", func(r *rules.Rollout) bool { return !r.Status.Abort }},
		{"pause", awaitingPromotion, argo.Pause.Send,
			[]string{get, "patch rollouts " + merge + ` {"spec":{"paused":true}}`},
			"rollout 'checkout' paused", func(r *rules.Rollout) bool { return r.Spec.Paused }},
		{"resume", pausedByHand, argo.Resume.Send,
			[]string{get, "patch rollouts " + merge + ` {"spec":{"paused":false}}`},
			"rollout 'checkout' resumed", func(r *rules.Rollout) bool { return !r.Spec.Paused && len(r.Status.PauseConditions) == 1 }},
	} {
		c := newCluster(t, []string{tc.manifest})
		says, err := tc.act(context.Background(), c.c, shop)
		if err != nil || says != tc.says {
			t.Errorf("%s: %q, %v; want %q", tc.name, says, err, tc.says)
		}
		same(t, tc.name, c.requests(), tc.want)
		if !tc.ends(c.rollout(t)) {
			t.Errorf("%s: the Rollout does not end where the plugin leaves it: %+v / %+v", tc.name, c.rollout(t).Spec, c.rollout(t).Status)
		}
	}
}

// In a state where it cannot work an action sends nothing after its read,
// and says why in one line.
func TestRefusedStatesSendNothing(t *testing.T) {
	aborted := with(awaitingPromotion, "  abort: true\n")
	promoted := strings.Replace(strings.Replace(awaitingPromotion, "stableRS: old", "stableRS: new", 1), "currentStepIndex: 1", "currentStepIndex: 4", 1)
	for _, tc := range []struct {
		name, manifest string
		act            func(context.Context, kubernetes.Interface, argo.Target) (string, error)
		says           string
	}{
		{"promote of an aborted Rollout", aborted, argo.Promote.Send, "rollout/checkout is aborted"},
		{"retry of a Rollout not aborted", awaitingPromotion, argo.Retry.Send, "rollout/checkout is not aborted: there is nothing to retry"},
		{"promote --full of a promoted Rollout", promoted, argo.PromoteFull.Send, "rollout/checkout is already fully promoted"},
		{"abort of a promoted Rollout", promoted, argo.Abort.Send, "rollout/checkout has nothing to abort"},
		{"resume of a Rollout at its pause step", awaitingPromotion, argo.Resume.Send, "rollout/checkout is not paused by hand"},
	} {
		c := newCluster(t, []string{tc.manifest})
		says, err := tc.act(context.Background(), c.c, shop)
		if err == nil || !strings.HasPrefix(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") || says != "" {
			t.Errorf("%s: %q, %v; want one line starting %q", tc.name, says, err, tc.says)
		}
		same(t, tc.name, c.requests(), []string{get})
	}
	// An action that would change nothing is the console's ⊘.
	c := newCluster(t, []string{aborted})
	if _, err := argo.Retry.Send(context.Background(), c.c, shop); err != nil {
		t.Fatal(err)
	}
	if _, err := argo.Abort.Send(context.Background(), newCluster(t, []string{aborted}).c, shop); !errors.Is(err, action.ErrNothingToDo) {
		t.Errorf("abort of an aborted Rollout: %v; want it nothing to do", err)
	}
}

// A CRD without the status subresource (Argo before v0.10) answers a
// status patch NotFound: the plugin then sends its unified patch to the
// main resource instead of the status and spec patches.
func TestAStatusPatchAnsweredNotFoundFallsBackToTheMainResource(t *testing.T) {
	pausedByHand := strings.Replace(awaitingPromotion, "  replicas: 5\n", "  replicas: 5\n  paused: true\n", 1)
	noStatus := func(c *cluster) {
		c.answer("patch", "rollouts", func(a k8stesting.Action) (bool, runtime.Object, error) {
			if a.GetSubresource() == "status" {
				return true, nil, apierrors.NewNotFound(rules.Rollouts.GroupResource(), "checkout")
			}
			return false, nil, nil
		})
	}
	c := newCluster(t, []string{pausedByHand})
	noStatus(c)
	if _, err := argo.Promote.Send(context.Background(), c.c, shop); err != nil {
		t.Fatal(err)
	}
	same(t, "promote", c.requests(), []string{get,
		"patch rollouts/status " + merge + ` {"status":{"pauseConditions":null}}`,
		"patch rollouts " + merge + ` {"spec":{"paused":false},"status":{"pauseConditions":null}}`})

	c = newCluster(t, []string{awaitingPromotion})
	noStatus(c)
	if _, err := argo.Abort.Send(context.Background(), c.c, shop); err != nil {
		t.Fatal(err)
	}
	same(t, "abort", c.requests(), []string{get,
		"patch rollouts/status " + merge + ` {"status":{"abort":true}}`,
		"patch rollouts " + merge + ` {"status":{"abort":true}}`})
}

// Restart and scale send one patch each and read nothing first, as the
// plugin and kubectl scale do.
func TestRestartAndScaleSendOnePatch(t *testing.T) {
	c := newCluster(t, []string{awaitingPromotion})
	at := time.Date(2026, 12, 2, 7, 30, 0, 0, time.UTC)
	if says, err := argo.Restart(context.Background(), c.c, shop, at); err != nil || says != "rollout 'checkout' restarts in 0s" {
		t.Errorf("restart: %q, %v", says, err)
	}
	same(t, "restart", c.requests(), []string{"patch rollouts " + merge + " {\n\t\"spec\": {\n\t\t\"restartAt\": \"2026-12-02T07:30:00Z\"\n\t}\n}"})
	if r := c.rollout(t); r.Spec.RestartAt == nil || !r.Spec.RestartAt.Time.Equal(at) {
		t.Errorf("restartAt = %v", r.Spec.RestartAt)
	}

	c = newCluster(t, []string{awaitingPromotion})
	if says, err := argo.Scale(context.Background(), c.c, shop, 8); err != nil || says != "rollout.argoproj.io/checkout scaled" {
		t.Errorf("scale: %q, %v", says, err)
	}
	same(t, "scale", c.requests(), []string{"patch rollouts/scale " + merge + ` {"spec":{"replicas":8}}`})
	if _, err := argo.Scale(context.Background(), c.c, shop, -1); err == nil || len(c.requests()) != 1 {
		t.Errorf("scale to -1: %v, sent %v; want it refused with nothing sent", err, c.requests())
	}
}

// Set image reads and updates the whole Rollout (or its workloadRef's
// Deployment), reading again after a conflict; a container it lacks sends
// nothing.
func TestSetImageUpdatesTheObjectThePluginDoes(t *testing.T) {
	c := newCluster(t, []string{awaitingPromotion})
	conflicts := 1
	c.answer("update", "rollouts", func(k8stesting.Action) (bool, runtime.Object, error) {
		if conflicts > 0 {
			conflicts--
			return true, nil, apierrors.NewConflict(rules.Rollouts.GroupResource(), "checkout", errors.New("the object has been modified"))
		}
		return false, nil, nil
	})
	says, err := argo.SetImage(context.Background(), c.c, shop, "app", "shop/checkout:v4")
	if err != nil || says != `rollout "checkout" image updated` {
		t.Errorf("set image: %q, %v", says, err)
	}
	same(t, "set image", c.requests(), []string{get, "update rollouts app=shop/checkout:v4 proxy=envoy:1", get, "update rollouts app=shop/checkout:v4 proxy=envoy:1"})

	c = newCluster(t, []string{awaitingPromotion})
	_, err = argo.SetImage(context.Background(), c.c, shop, "web", "shop/checkout:v4")
	if err == nil || err.Error() != `cannot set image of rollout/checkout: rollout/checkout has no container "web" (containers: app, proxy)` {
		t.Errorf("set image of a missing container: %v", err)
	}
	same(t, "set image of a missing container", c.requests(), []string{get})

	deploy := `
apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout-template, namespace: shop}
spec:
  replicas: 0
  template: {spec: {containers: [{name: app, image: "shop/checkout:v3"}]}}
`
	c = newCluster(t, []string{withWorkloadRef, deploy})
	says, err = argo.SetImage(context.Background(), c.c, shop, "*", "shop/checkout:v4")
	if err != nil || says != `deployment "checkout-template" image updated` {
		t.Errorf("set image of a workloadRef: %q, %v", says, err)
	}
	same(t, "set image of a workloadRef", c.requests(), []string{get, "get deployments", "update deployments app=shop/checkout:v4"})
}

// replicaSet is revision rev of the Rollout, running image.
func replicaSet(rev, image string) *appsv1.ReplicaSet {
	yes := true
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{
		Name: "checkout-" + rev, Namespace: "shop", Labels: map[string]string{"app": "checkout"},
		Annotations:     map[string]string{rules.RevisionAnnotation: rev},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout", Name: "checkout", UID: "ro-uid", Controller: &yes}},
	}}
	rs.Spec.Template = corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "checkout", rules.PodTemplateHashLabel: "h" + rev}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}, {Name: "proxy", Image: "envoy:1"}}},
	}
	return rs
}

// undoPatch is the plugin's patch for rs: its template, hash label removed.
func undoPatch(rs *appsv1.ReplicaSet) string {
	tpl := rs.Spec.Template.DeepCopy()
	delete(tpl.Labels, rules.PodTemplateHashLabel)
	b, _ := json.Marshal([]any{map[string]any{"op": "replace", "path": "/spec/template", "value": tpl}})
	return string(b)
}

// Undo lists the Rollout's ReplicaSets with its selector and sends the
// revision's template back as the plugin's JSON patch; a revision it does
// not have, or the one it runs, sends nothing.
func TestUndoSendsTheRevisionsTemplate(t *testing.T) {
	one, two, three := replicaSet("1", "shop/checkout:v1"), replicaSet("2", "shop/checkout:v2"), replicaSet("3", "shop/checkout:v3")
	c := newCluster(t, []string{awaitingPromotion}, one, two, three)
	says, err := argo.Undo(context.Background(), c.c, shop, 1)
	if err != nil || says != "rollout 'checkout' back on revision 1's template" {
		t.Errorf("undo: %q, %v", says, err)
	}
	same(t, "undo", c.requests(), []string{get, "list replicasets", "patch rollouts application/json-patch+json " + undoPatch(one)})
	if r := c.rollout(t); r.Spec.Template.Spec.Containers[0].Image != "shop/checkout:v1" || r.Spec.Template.Labels[rules.PodTemplateHashLabel] != "" {
		t.Errorf("the Rollout's template after the undo: %+v", r.Spec.Template)
	}
	if got := c.kube.Actions()[0].(k8stesting.ListAction).GetListRestrictions().Labels.String(); got != "app=checkout" {
		t.Errorf("the ReplicaSets are listed with %q, want the Rollout's selector", got)
	}

	for _, tc := range []struct {
		to       int64
		says     string
		noChange bool
	}{
		{7, "cannot undo: rollout/checkout has no revision 7 (revisions: 1, 2, 3)", false},
		{3, "cannot undo: rollout/checkout: skipped rollback (current template already matches revision 3)", true},
	} {
		c := newCluster(t, []string{awaitingPromotion}, one, two, three)
		_, err := argo.Undo(context.Background(), c.c, shop, tc.to)
		if err == nil || !strings.HasPrefix(err.Error(), tc.says) || errors.Is(err, action.ErrNothingToDo) != tc.noChange {
			t.Errorf("undo to %d: %v; want %q", tc.to, err, tc.says)
		}
		same(t, fmt.Sprint("undo to ", tc.to), c.requests(), []string{get, "list replicasets"})
	}
}

// A workloadRef Rollout's undo patches the Deployment it names.
func TestUndoOfAWorkloadRefRolloutPatchesTheDeployment(t *testing.T) {
	one, two := replicaSet("1", "shop/checkout:v1"), replicaSet("2", "shop/checkout:v2")
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "checkout-template", Namespace: "shop"}}
	d.Spec.Template = two.Spec.Template
	c := newCluster(t, []string{withWorkloadRef}, one, two, d)
	if _, err := argo.Undo(context.Background(), c.c, shop, 1); err != nil {
		t.Fatal(err)
	}
	same(t, "undo", c.requests(), []string{get, "list replicasets", "patch deployments application/json-patch+json " + undoPatch(one)})
	got, _ := c.kube.AppsV1().Deployments("shop").Get(context.Background(), "checkout-template", metav1.GetOptions{})
	if got.Spec.Template.Spec.Containers[0].Image != "shop/checkout:v1" {
		t.Errorf("the Deployment's template after the undo: %+v", got.Spec.Template)
	}
}

// A connection that serves no custom resources: one line, nothing sent.
func TestWithoutCustomResourcesNothingIsSent(t *testing.T) {
	kube := fake.NewSimpleClientset()
	_, err := argo.Promote.Send(context.Background(), kube, shop)
	if !errors.Is(err, objects.ErrNoCustomResources) || !strings.HasPrefix(err.Error(), "cannot promote rollout/checkout: ") {
		t.Errorf("promote without custom resources: %v", err)
	}
	if len(kube.Actions()) != 0 {
		t.Errorf("sent %v", kube.Actions())
	}
}
