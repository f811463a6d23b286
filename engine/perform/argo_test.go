package perform

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/forecast"
	"rollscope/engine/sim"
	"rollscope/kube/objects"
	"rollscope/model/action"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// rolloutAtPause is shop/checkout, a canary at its indefinite pause.
func rolloutAtPause() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout",
		"metadata": map[string]any{"name": "checkout", "namespace": "shop", "uid": "ro-uid"},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": "checkout"}},
			"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": "shop/checkout:v3"}}}},
			"strategy": map[string]any{"canary": map[string]any{"steps": []any{
				map[string]any{"setWeight": int64(20)}, map[string]any{"pause": map[string]any{}}}}},
		},
		"status": map[string]any{"currentStepIndex": int64(1), "currentPodHash": "new", "stableRS": "old", "controllerPause": true,
			"pauseConditions": []any{map[string]any{"reason": "CanaryPauseStep", "startTime": "2026-12-02T06:00:00Z"}}},
	}}
}

// rolloutCluster is a connection holding the Rollout, and the writes sent
// to it, one line each.
func rolloutCluster() (*Cluster, func() []string) {
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{argo.Rollouts: "RolloutList"}, rolloutAtPause())
	kube := fake.NewSimpleClientset()
	now := func() time.Time { return time.Date(2026, 12, 2, 7, 30, 0, 0, time.UTC) }
	c := New(Config{Client: objects.WithDynamic(kube, dyn), Now: now})
	return c, func() []string {
		var out []string
		for _, a := range dyn.Actions() {
			if p, ok := a.(k8stesting.PatchAction); ok {
				out = append(out, strings.TrimSpace(p.GetSubresource()+" "+string(p.GetPatch())))
			} else if a.GetVerb() != "get" {
				out = append(out, a.GetVerb())
			}
		}
		return out
	}
}

// Each Rollout verb reaches engine/argo's sender for it: the write the
// plugin's command makes, or its refusal.
func TestRolloutVerbsSendThePluginsRequests(t *testing.T) {
	for _, tc := range []struct {
		v      kind.Verb
		r      action.Request
		writes string
		says   string
	}{
		{kind.Promote, action.Request{}, `status {"status":{"pauseConditions":null}}`, "rollout 'checkout' promoted"},
		{kind.PromoteFull, action.Request{}, `status {"status":{"promoteFull":true}}`, "rollout 'checkout' fully promoted"},
		{kind.Abort, action.Request{}, `status {"status":{"abort":true}}`, "rollout 'checkout' aborted"},
		{kind.Pause, action.Request{}, `{"spec":{"paused":true}}`, "rollout 'checkout' paused"},
		{kind.Restart, action.Request{}, "{\n\t\"spec\": {\n\t\t\"restartAt\": \"2026-12-02T07:30:00Z\"\n\t}\n}", "rollout 'checkout' restarts in 0s"},
		{kind.SetImage, action.Request{Container: "app", Image: "shop/checkout:v4"}, "update", `rollout "checkout" image updated`},
		{kind.Scale, action.Request{Replicas: 3}, `scale {"spec":{"replicas":3}}`, "rollout.argoproj.io/checkout scaled"},
		{kind.Retry, action.Request{}, "", "rollout/checkout is not aborted: there is nothing to retry"},
		{kind.Resume, action.Request{}, "", "rollout/checkout is not paused by hand"},
	} {
		c, writes := rolloutCluster()
		tc.r.Namespace, tc.r.Name = "shop", "checkout"
		o := c.argoOp(tc.v, tc.r)
		if err := o.refuse(); err != nil {
			t.Fatalf("%s: refused before sending: %v", tc.v, err)
		}
		says, err := o.send(context.Background())
		if err != nil {
			says = err.Error()
		}
		if !strings.HasPrefix(says, tc.says) || strings.Join(writes(), " | ") != tc.writes {
			t.Errorf("%s: %q, sent %q; want %q, sent %q", tc.v, says, writes(), tc.says, tc.writes)
		}
	}
}

// Bad input is one clear line before anything is read or sent.
func TestRolloutVerbsRefuseBadInputBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		v    kind.Verb
		r    action.Request
		says string
	}{
		{kind.SetImage, action.Request{Container: "app", Image: "Shop/Checkout::v4"}, "invalid reference format"},
		{kind.SetImage, action.Request{Image: "shop/checkout:v4"}, "pick a container first"},
		{kind.Undo, action.Request{Revision: 0}, "revision 0 does not exist"},
		{kind.Scale, action.Request{Replicas: -1}, "replicas must be 0 or more, not -1"},
	} {
		c, writes := rolloutCluster()
		tc.r.Namespace, tc.r.Name = "shop", "checkout"
		err := c.argoOp(tc.v, tc.r).refuse()
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") || len(writes()) > 0 {
			t.Errorf("%s %+v: %v, sent %v; want one line with %q, nothing sent", tc.v, tc.r, err, writes(), tc.says)
		}
	}
}

// Through the table: once the registry lists the Rollout kind, its
// actions' requests go to Argo's sender and their forecasts to the
// Rollout's rehearsal (none here: this console has no rehearsal cluster),
// never a rehearsal of a Deployment.
func TestRolloutRequestsGoThroughTheTable(t *testing.T) {
	if _, ok := action.Lookup("ro-promote"); !ok {
		t.Skip("the registry lists no Rollout kind on this branch")
	}
	c, writes := rolloutCluster()
	r := action.Request{Action: "ro-promote", Namespace: "shop", Name: "checkout"}
	if says, err := c.Send(context.Background(), r); err != nil || says != "rollout 'checkout' promoted" || len(writes()) != 1 {
		t.Errorf("send: %q, %v, sent %v", says, err, writes())
	}
	if f, err := c.Forecast(context.Background(), r); err == nil || !strings.Contains(err.Error(), "no rehearsal cluster") {
		t.Errorf("forecast: %q, %v", f, err)
	}
	if _, err := c.Send(context.Background(), action.Request{Action: "ro-retry", Namespace: "shop", Name: "checkout"}); !errors.Is(err, action.ErrNothingToDo) {
		t.Errorf("retry of a Rollout not aborted: %v", err)
	}
}

// A Rollout a rehearsal cannot run as the cluster would (here a canary
// with traffic routing, which the embedded controller does not run) is not
// rehearsed: its confirmation's
// forecast is one line saying so, and nothing is sent or copied.
func TestAnUnmodelledRolloutsForecastSaysSoInOneLine(t *testing.T) {
	ro := rolloutAtPause()
	ro.Object["spec"].(map[string]any)["strategy"] = map[string]any{"canary": map[string]any{
		"trafficRouting": map[string]any{"nginx": map[string]any{"stableIngress": "web"}},
		"steps":          []any{map[string]any{"setWeight": int64(20)}, map[string]any{"pause": map[string]any{}}},
	}}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{argo.Rollouts: "RolloutList"}, ro)
	rehearsed := false
	c := New(Config{Client: objects.WithDynamic(fake.NewSimpleClientset(), dyn), Now: time.Now,
		Rehearsal: func(*sim.Clock) forecast.Backend { rehearsed = true; return nil }})
	for _, v := range []string{"ro-promote", "ro-abort", "ro-undo"} {
		r := action.Request{Action: action.Name(v), Namespace: "shop", Name: "checkout", Revision: 1}
		f, err := c.Forecast(context.Background(), r)
		if err != nil || strings.Contains(f, "\n") || !strings.Contains(f, "rollout/checkout has") || !strings.Contains(f, "spec.strategy.canary.trafficRouting") {
			t.Errorf("%s: forecast %q, %v; want one line naming trafficRouting", v, f, err)
		}
	}
	if rehearsed {
		t.Error("a rehearsal was started for a Rollout it cannot run")
	}
	for _, a := range dyn.Actions() {
		if a.GetVerb() != "get" {
			t.Errorf("the forecast sent %s", a.GetVerb())
		}
	}
}
