package cluster_test

import (
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// tenThousand is a rollout of 10,000 replicas halfway through: 5,000 old
// pods ready, 5,000 new ones not ready yet, so the blocker looks at every
// pod (the worst case: nothing earlier in the order stops the scan).
func tenThousand() *rollout {
	r := newRollout("registry.local/web:v5", 10000, 5000, 5000)
	for i := range 5000 {
		r.pod(fmt.Sprintf("n%05d", i), notReady(blockerNow.Add(-time.Duration(i)*time.Millisecond)))
	}
	return r
}

func BenchmarkBlockerTenThousandPods(b *testing.B) {
	in := tenThousand().input()
	b.ReportAllocs()
	for b.Loop() {
		if cluster.Blocker(in) == "" {
			b.Fatal("no blocker for a rollout of 5,000 pods not ready")
		}
	}
}

// The same from the console's picture: gathering the pods from its indexes
// is part of the cost.
func BenchmarkClusterBlockerTenThousandPods(b *testing.B) {
	r := tenThousand()
	objs := []runtime.Object{r.d, r.oldRS, r.newRS}
	for _, p := range r.pods {
		p.ResourceVersion = "1"
		objs = append(objs, p)
	}
	for _, rs := range []*appsv1.ReplicaSet{r.oldRS, r.newRS} {
		rs.ResourceVersion = "1"
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: blockerNow, Objects: objs, Watch: synced})
	cpuLoop(b, nil, func(_ int) {
		if c.Blocker(shop, "web", blockerNow) == "" {
			b.Fatal("no blocker for a rollout of 5,000 pods not ready")
		}
	})
}
