package deployment

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

// BenchmarkSyncThreeReplicaSets syncs a settled deployment with its current
// ReplicaSet and two old ones: the steady-state sync every resync pays for.
func BenchmarkSyncThreeReplicaSets(b *testing.B) {
	f := newFixture(b, webDeployment(10, "web:v1", appsv1.RollingUpdateDeploymentStrategyType))
	for _, image := range []string{"web:v1", "web:v2", "web:v3"} {
		f.edit(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image })
		for range 8 {
			f.syncAndSee()
			f.settle()
		}
	}
	if len(f.replicaSets()) != 3 {
		b.Fatalf("setup: %d ReplicaSets, want 3", len(f.replicaSets()))
	}
	f.Client.ClearActions()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := f.c.Sync(ctx, webKey); err != nil {
			b.Fatal(err)
		}
	}
	if w := f.writes(); len(w) != 0 {
		b.Fatalf("a settled deployment wrote %v", w)
	}
}
