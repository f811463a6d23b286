package perform_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/perform"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/action"
)

// rehearsal is the empty embedded API a forecast rehearses on, as the
// console hands it over.
func rehearsal(clock *sim.Clock) forecast.Backend {
	return memapi.New(memapi.Options{Clock: clock, Seed: 1})
}

// rolledOut is the quiet canary once its first rollout has finished, and
// a Cluster on it that forecasts.
func rolledOut(t *testing.T) (*embedded.Cluster, *perform.Cluster) {
	t.Helper()
	// The canary scenario without scripted actions: the tests send the
	// requests themselves.
	sc, err := scenario.Load("../../testdata/scenarios/quiet-canary.yaml")
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
	return cl, perform.New(perform.Config{Client: cl.Client, Now: clock.Now, Record: true, Rehearsal: rehearsal})
}

// The forecast rehearses the request on a copy read from the cluster,
// says where its readiness figure comes from, and sends nothing.
func TestForecastRehearsesOnACopy(t *testing.T) {
	cl, p := rolledOut(t)
	ctx := context.Background()
	req := action.Request{Action: action.SetImage, Namespace: "default", Name: "frontend", Container: "php-redis", Image: "gcr.io/google-samples/gb-frontend:v3"}
	d0, err := cl.Client.AppsV1().Deployments("default").Get(ctx, "frontend", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Forecast(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// maxSurge 1, maxUnavailable 0 on 6 replicas: one pod at a time.
	for _, want := range []string{"12 scaling steps, new pods ready in 6 waves, at most 7 pods, never fewer than 6 available, about ",
		"; pods ready ", "(median of 6 observed) + minReadySeconds 5s"} {
		if !strings.Contains(got, want) {
			t.Errorf("forecast %q does not say %q", got, want)
		}
	}
	if d, _ := cl.Client.AppsV1().Deployments("default").Get(ctx, "frontend", metav1.GetOptions{}); d.ResourceVersion != d0.ResourceVersion {
		t.Errorf("the forecast changed the deployment (resourceVersion %s → %s)", d0.ResourceVersion, d.ResourceVersion)
	}

	// The image already running rolls nothing.
	req.Image = "gcr.io/google-samples/gb-frontend:v2"
	if got, err = p.Forecast(ctx, req); err != nil || !strings.HasPrefix(got, "0 scaling steps, at most") {
		t.Errorf("forecast of the running image: %q, %v", got, err)
	}
	// A finished rollout has nothing to abort; the engine's words come back.
	_, err = p.Forecast(ctx, action.Request{Action: action.Abort, Namespace: "default", Name: "frontend"})
	if !errors.Is(err, action.ErrNothingToDo) {
		t.Errorf("forecast of an abort with nothing to abort: %v", err)
	}
	// Scaling starts no rollout.
	if _, err = p.Forecast(ctx, action.Request{Action: action.Scale, Namespace: "default", Name: "frontend", Replicas: 3}); err == nil ||
		err.Error() != "scale to 3 starts no rollout: there is nothing to forecast" {
		t.Errorf("forecast of a scale: %v", err)
	}
	// Without a rehearsal cluster there is no forecast, and it says so.
	if _, err = perform.New(perform.Config{Client: cl.Client}).Forecast(ctx, req); err == nil || !strings.Contains(err.Error(), "no rehearsal cluster") {
		t.Errorf("forecast without a rehearsal cluster: %v", err)
	}
}

// An undo the dialog will send after resuming is forecast the same way: on
// the copy the deployment is resumed, then rolled back.
func TestForecastOfAnUndoThatResumesFirst(t *testing.T) {
	cl, p := rolledOut(t)
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
	req := action.Request{Action: action.Undo, Namespace: "default", Name: "frontend", Revision: 1}
	if _, err := p.Forecast(ctx, req); !errors.Is(err, actions.ErrPaused) {
		t.Errorf("undo of a paused deployment forecast without resuming: %v", err)
	}
	req.ResumeFirst = true
	got, err := p.Forecast(ctx, req)
	if err != nil || !strings.HasPrefix(got, "12 scaling steps, new pods ready in 6 waves, at most 7 pods, never fewer than 6 available") {
		t.Errorf("forecast of resume then undo: %q, %v", got, err)
	}
	d, _ := cl.Client.AppsV1().Deployments("default").Get(ctx, "frontend", metav1.GetOptions{})
	if !d.Spec.Paused {
		t.Error("the forecast resumed the real deployment")
	}
}

// While a node roll drains the batch nodes, a forecast says it assumes no
// drain evicts the pods it rehearses: the rehearsal copies the workload,
// not the nodes. With no drain under way it says nothing of the kind.
func TestForecastStatesItsAssumptionDuringANodeRoll(t *testing.T) {
	ctx := context.Background()
	sc, err := scenario.Load("fleet")
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	cl, err := embedded.Start(ctx, memapi.New(memapi.Options{Clock: clock, Seed: 1}), clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Runner.Close)
	if _, err := cl.Run(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	p := perform.New(perform.Config{Client: cl.Client, Now: clock.Now, Rehearsal: rehearsal})
	req := action.Request{Action: action.SetImage, Namespace: "platform", Name: "batch-runner", Container: "app", Image: "registry.example.com/platform/batch-runner:rehearsed"}
	got, err := p.Forecast(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "; assumes no drain or node roll evicts its pods — one is under way on ") {
		t.Errorf("forecast during the batch node roll %q does not state its assumption", got)
	}

	_, quiet := rolledOut(t)
	got, err = quiet.Forecast(ctx, action.Request{Action: action.SetImage, Namespace: "default", Name: "frontend", Container: "php-redis", Image: "gcr.io/google-samples/gb-frontend:v3"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "drain") {
		t.Errorf("forecast with no drain under way %q speaks of one", got)
	}
}
