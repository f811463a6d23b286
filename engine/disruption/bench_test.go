package disruption

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// BenchmarkSyncBudget10000Pods measures the recount a budget over a large
// Deployment gets after one of its pods changes readiness.
func BenchmarkSyncBudget10000Pods(b *testing.B) {
	ofRS := controllerRef("apps/v1", "ReplicaSet", "web-abc")
	objs := []runtime.Object{deployment("web", 10000), replicaSet("web-abc", 10000, "web"), budget("pdb", nil, percent("10%"))}
	for i := range 10000 {
		objs = append(objs, pod(fmt.Sprintf("web-abc-%05d", i), ready, ofRS))
	}
	h := newHarness(b, objs...)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := h.ctrl.Sync(ctx, "default/pdb"); err != nil {
			b.Fatal(err)
		}
	}
	if st := h.budget("pdb"); st.ExpectedPods != 10000 || st.DisruptionsAllowed != 1000 {
		b.Fatalf("status %+v", st)
	}
}
