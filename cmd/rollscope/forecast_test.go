package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/action"
)

// rolledOut is the quiet canary once its first rollout has finished.
func rolledOut(t *testing.T) (*embedded.Cluster, *sim.Clock) {
	t.Helper()
	sc, err := scenario.Parse("quiet-canary.yaml", []byte(quietCanary))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: 1}), clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Runner.Close)
	if _, err := cl.Run(context.Background(), 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	return cl, clock
}

// The console's forecast rehearses the request on a copy read from the
// cluster, says where its readiness figure comes from, and sends nothing.
func TestConsoleForecastRehearsesOnACopy(t *testing.T) {
	cl, clock := rolledOut(t)
	a := &clusterActions{client: cl.Client, now: clock.Now}
	req := action.Request{Action: action.SetImage, Namespace: "default", Name: "frontend", Container: "php-redis", Image: "gcr.io/google-samples/gb-frontend:v3"}
	d0, err := cl.Client.AppsV1().Deployments("default").Get(context.Background(), "frontend", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rv := d0.ResourceVersion

	got, err := a.Forecast(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// maxSurge 1, maxUnavailable 0 on 6 replicas: one pod at a time.
	for _, want := range []string{"12 scaling steps in 6 waves, at most 7 pods, never fewer than 6 available, about ",
		"; pods ready ", "(median of 6 observed) + minReadySeconds 5s"} {
		if !strings.Contains(got, want) {
			t.Errorf("forecast %q does not say %q", got, want)
		}
	}
	if d, _ := a.client.AppsV1().Deployments("default").Get(context.Background(), "frontend", metav1.GetOptions{}); d.ResourceVersion != rv {
		t.Errorf("the forecast changed the deployment (resourceVersion %s → %s)", rv, d.ResourceVersion)
	}

	// The image already running rolls nothing.
	req.Image = "gcr.io/google-samples/gb-frontend:v2"
	if got, err = a.Forecast(context.Background(), req); err != nil || !strings.HasPrefix(got, "0 scaling steps in 0 waves") {
		t.Errorf("forecast of the running image: %q, %v", got, err)
	}
	// A finished rollout has nothing to abort; the engine's words come back.
	_, err = a.Forecast(context.Background(), action.Request{Action: action.Abort, Namespace: "default", Name: "frontend"})
	if !errors.Is(err, actions.ErrNothingToDo) {
		t.Errorf("forecast of an abort with nothing to abort: %v", err)
	}
	// Scaling starts no rollout.
	if _, err = a.Forecast(context.Background(), action.Request{Action: action.Scale, Namespace: "default", Name: "frontend", Replicas: 3}); err == nil {
		t.Error("a scale was forecast")
	}
}

// An undo the dialog will send after resuming is forecast the same way: on
// the copy the deployment is resumed, then rolled back.
func TestConsoleForecastOfAnUndoThatResumesFirst(t *testing.T) {
	cl, clock := rolledOut(t)
	ctx := context.Background()
	target := actions.Target{Namespace: "default", Name: "frontend"}
	if err := actions.SetImage(ctx, cl.Client, target, "php-redis", "gcr.io/google-samples/gb-frontend:v3", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(ctx, 20*time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := actions.Pause(ctx, cl.Client, target); err != nil {
		t.Fatal(err)
	}
	a := &clusterActions{client: cl.Client, now: clock.Now}
	req := action.Request{Action: action.Undo, Namespace: "default", Name: "frontend", Revision: 1}
	if _, err := a.Forecast(ctx, req); !errors.Is(err, actions.ErrPaused) {
		t.Errorf("undo of a paused deployment forecast without resuming: %v", err)
	}
	req.ResumeFirst = true
	got, err := a.Forecast(ctx, req)
	if err != nil || !strings.HasPrefix(got, "12 scaling steps in 6 waves, at most 7 pods, never fewer than 6 available") {
		t.Errorf("forecast of resume then undo: %q, %v", got, err)
	}
	d, _ := cl.Client.AppsV1().Deployments("default").Get(ctx, "frontend", metav1.GetOptions{})
	if !d.Spec.Paused {
		t.Error("the forecast resumed the real deployment")
	}
}
