package perform_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/embedded"
	"rollscope/engine/perform"
	"rollscope/model"
	"rollscope/model/action"
)

// An undo sent while a guided canary holds its first step brings the
// Deployment back with its own strategy, minReadySeconds and progress
// deadline: the revision it copies carries no canary, so nothing else would
// ever lift the hold, and the rollback would never finish.
func TestUndoDuringACanaryLiftsTheHold(t *testing.T) {
	cl, p := rolledOut(t)
	ctx := context.Background()
	api := cl.Client.AppsV1().Deployments("default")
	before, err := api.Get(ctx, "frontend", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	holdCanary(t, cl, p)
	if _, err := p.Send(ctx, action.Request{Action: action.Undo, Namespace: "default", Name: "frontend", Revision: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(ctx, cl.Elapsed()+5*time.Minute); err != nil {
		t.Fatal(err)
	}
	d, err := api.Get(ctx, "frontend", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if model.CanaryHeld(d) || model.HasCanaryAnnotations(d) {
		t.Fatalf("the hold or the canary's annotations stay after the undo: minReadySeconds %d, annotations %v", d.Spec.MinReadySeconds, d.Annotations)
	}
	if d.Spec.MinReadySeconds != before.Spec.MinReadySeconds || *d.Spec.ProgressDeadlineSeconds != *before.Spec.ProgressDeadlineSeconds {
		t.Errorf("settings not the Deployment's own: minReadySeconds %d (was %d), progressDeadlineSeconds %d (was %d)",
			d.Spec.MinReadySeconds, before.Spec.MinReadySeconds, *d.Spec.ProgressDeadlineSeconds, *before.Spec.ProgressDeadlineSeconds)
	}
	if msg, done, err := model.RolloutStatus(d, 0); err != nil || !done {
		t.Errorf("the rollback did not finish: %q %v", msg, err)
	}
}

// holdCanary starts a guided canary of v9 on the quiet canary (steps 1 and
// 50%, each held for a promote) and returns the Deployment once its first
// step holds.
func holdCanary(t *testing.T, cl *embedded.Cluster, p *perform.Cluster) *appsv1.Deployment {
	t.Helper()
	ctx := context.Background()
	start := action.Request{Action: action.Canary, Namespace: "default", Name: "frontend", Container: "php-redis",
		Image: "gcr.io/google-samples/gb-frontend:v9", Canary: action.CanarySettings{Steps: []string{"1", "50%"}, Holds: []string{"pause"}}}
	if _, err := p.Send(ctx, start); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(ctx, cl.Elapsed()+30*time.Second); err != nil {
		t.Fatal(err)
	}
	held, err := cl.Client.AppsV1().Deployments("default").Get(ctx, "frontend", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !model.CanaryHeld(held) {
		t.Fatalf("the canary does not hold its step: minReadySeconds %d", held.Spec.MinReadySeconds)
	}
	return held
}
