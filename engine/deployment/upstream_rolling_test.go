package deployment

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/upstreamcases"
)

// noTimestamp is upstream's zero creation time for rolling_test ReplicaSets.
var noTimestamp time.Time

func TestUpstreamReconcileNewReplicaSet(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "reconcile_new_replica_set") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				rollingCase
				NewRS, OldRS struct{ SpecReplicas int32 }
				AllRSsOrder  []string
			}
			var want struct {
				Scaled             bool
				NewRSReplicasAfter int32
			}
			c.Decode(t, &in, &want)
			// Upstream names both "foo-v2"; one API cannot hold two, and only
			// the new one is ever written.
			newOne := newRS("foo-v2", in.NewRS.SpecReplicas, nil, noTimestamp)
			oldOne := newRS("foo-v1", in.OldRS.SpecReplicas, nil, noTimestamp)
			byName := map[string]*appsv1.ReplicaSet{"newRS": newOne, "oldRS": oldOne}
			var allRSs []*appsv1.ReplicaSet
			for _, n := range in.AllRSsOrder {
				allRSs = append(allRSs, byName[n])
			}
			d := in.deployment(map[string]string{"foo": "bar"})
			f := newFixture(t, newOne, oldOne)

			scaled, err := f.c.reconcileNewReplicaSet(context.Background(), allRSs, newOne, d)
			if err != nil {
				t.Fatal(err)
			}
			if scaled != want.Scaled {
				t.Errorf("scaled = %v, want %v", scaled, want.Scaled)
			}
			if got, ok := f.scaledTo(want.Scaled, "foo-v2"); ok && got != want.NewRSReplicasAfter {
				t.Errorf("new ReplicaSet scaled to %d, want %d", got, want.NewRSReplicasAfter)
			}
		})
	}
}

// rollingCase is the deployment every rolling-update case describes: foo,
// its replicas, maxSurge and maxUnavailable.
type rollingCase struct {
	DeploymentReplicas       int32
	MaxSurge, MaxUnavailable *intstr.IntOrString
}

// deployment is the case's deployment foo, selecting selector.
func (r rollingCase) deployment(selector map[string]string) *appsv1.Deployment {
	return newDeployment("foo", r.DeploymentReplicas, nil, r.MaxSurge, r.MaxUnavailable, selector)
}

type rsAvailability struct{ SpecReplicas, AvailableReplicas int32 }

func (r rsAvailability) build(name string, selector map[string]string) *appsv1.ReplicaSet {
	rs := newRS(name, r.SpecReplicas, selector, noTimestamp)
	rs.Status.AvailableReplicas = r.AvailableReplicas
	return rs
}

func TestUpstreamReconcileOldReplicaSets(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "reconcile_old_replica_sets") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				rollingCase
				OldRS, NewRS rsAvailability
			}
			var want struct {
				Scaled             bool
				OldRSReplicasAfter int32
			}
			c.Decode(t, &in, &want)
			newSelector, oldSelector := map[string]string{"foo": "new"}, map[string]string{"foo": "old"}
			newOne := in.NewRS.build("foo-new", newSelector)
			oldOne := in.OldRS.build("foo-old", oldSelector)
			d := in.deployment(newSelector)
			f := newFixture(t, newOne, oldOne)

			scaled, err := f.c.reconcileOldReplicaSets(context.Background(), []*appsv1.ReplicaSet{oldOne, newOne}, []*appsv1.ReplicaSet{oldOne}, newOne, d)
			if err != nil {
				t.Fatal(err)
			}
			if scaled != want.Scaled {
				t.Errorf("scaled = %v, want %v", scaled, want.Scaled)
			}
			if got := *f.replicaSetNamed("foo-old").Spec.Replicas; got != want.OldRSReplicasAfter {
				t.Errorf("old ReplicaSet at %d replicas, want %d", got, want.OldRSReplicasAfter)
			}
		})
	}
}

func TestUpstreamCleanupUnhealthyReplicas(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "cleanup_unhealthy_replicas") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				rollingCase
				OldRS           rsAvailability
				MaxCleanupCount int32
			}
			var want struct{ CleanupCount int32 }
			c.Decode(t, &in, &want)
			oldRS := in.OldRS.build("foo-v2", nil)
			d := in.deployment(nil)
			f := newFixture(t, oldRS)

			_, n, err := f.c.cleanupUnhealthyReplicas(context.Background(), []*appsv1.ReplicaSet{oldRS}, d, in.MaxCleanupCount)
			if err != nil {
				t.Fatal(err)
			}
			if n != want.CleanupCount {
				t.Errorf("cleaned up %d, want %d", n, want.CleanupCount)
			}
			if got := *f.replicaSetNamed("foo-v2").Spec.Replicas; got != in.OldRS.SpecReplicas-want.CleanupCount {
				t.Errorf("old ReplicaSet at %d replicas, want %d", got, in.OldRS.SpecReplicas-want.CleanupCount)
			}
		})
	}
}

func TestUpstreamScaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "scale_down_old_rs_rolling") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				rollingCase
				OldRS          rsAvailability
				AllRSs, OldRSs []string
			}
			var want struct {
				ScaledDown         bool `json:"scaledDownCount_gt_0"`
				OldRSReplicasAfter int32
			}
			c.Decode(t, &in, &want)
			if len(in.AllRSs) != 1 || in.AllRSs[0] != "oldRS" || len(in.OldRSs) != 1 || in.OldRSs[0] != "oldRS" {
				t.Fatalf("case shape not understood: allRSs %v oldRSs %v", in.AllRSs, in.OldRSs)
			}
			oldRS := in.OldRS.build("foo-v2", nil)
			d := in.deployment(map[string]string{"foo": "bar"})
			f := newFixture(t, oldRS)

			n, err := f.c.scaleDownOldReplicaSetsForRollingUpdate(context.Background(), []*appsv1.ReplicaSet{oldRS}, []*appsv1.ReplicaSet{oldRS}, d)
			if err != nil {
				t.Fatal(err)
			}
			if (n > 0) != want.ScaledDown {
				t.Errorf("scaled down %d, want scaled %v", n, want.ScaledDown)
			}
			if got, ok := f.scaledTo(want.ScaledDown, "foo-v2"); ok && got != want.OldRSReplicasAfter {
				t.Errorf("old ReplicaSet scaled to %d, want %d", got, want.OldRSReplicasAfter)
			}
		})
	}
}

// replicaSetNamed reads one ReplicaSet from the API.
// scaledTo checks the writes of a reconcile that was to scale a
// ReplicaSet or not: one update, of the ReplicaSet named, or no write at
// all. It returns the replicas the update set, and whether there was one.
func (f *fixture) scaledTo(scaled bool, name string) (int32, bool) {
	f.T.Helper()
	if !scaled {
		if len(f.writes()) != 0 {
			f.T.Errorf("unexpected writes: %v", f.writes())
		}
		return 0, false
	}
	updates := f.rsUpdates()
	if len(updates) != 1 || updates[0].Name != name {
		f.T.Fatalf("want exactly one update, of ReplicaSet %s, got %v", name, f.writes())
	}
	return *updates[0].Spec.Replicas, true
}

func (f *fixture) replicaSetNamed(name string) *appsv1.ReplicaSet {
	f.T.Helper()
	for _, rs := range f.replicaSets() {
		if rs.Name == name {
			return rs
		}
	}
	f.T.Fatalf("no replica set %s", name)
	return nil
}
