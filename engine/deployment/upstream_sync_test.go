package deployment

import (
	"context"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/upstreamcases"
)

type scaleRSInput struct {
	Name              string
	SpecReplicas      int32
	CreationTimestamp time.Time
	AvailableReplicas int32
}

func TestUpstreamScaleProportional(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "scale_proportional") {
		t.Run(c.Name(), func(t *testing.T) {
			type deploymentInput struct {
				Replicas                 int32
				MaxSurge, MaxUnavailable *intstr.IntOrString
			}
			var in struct {
				Deployment                        deploymentInput
				OldDeployment                     deploymentInput
				NewRS                             *scaleRSInput
				OldRSs                            []scaleRSInput
				DesiredReplicasAnnotationOverride map[string]int32
			}
			var want struct {
				NewRSReplicas   *int32
				OldRSReplicas   []int32
				IgnoreUpdatesTo []string
			}
			c.Decode(t, &in, &want)
			d := newDeployment("foo", in.Deployment.Replicas, nil, in.Deployment.MaxSurge, in.Deployment.MaxUnavailable, nil)
			old := newDeployment("foo", in.OldDeployment.Replicas, nil, in.OldDeployment.MaxSurge, in.OldDeployment.MaxUnavailable, nil)

			// Every ReplicaSet was last sized for the old deployment.
			annotate := func(r scaleRSInput) *appsv1.ReplicaSet {
				rs := newRS(r.Name, r.SpecReplicas, nil, r.CreationTimestamp)
				rs.Status.AvailableReplicas = r.AvailableReplicas
				desired := model.DesiredReplicas(old)
				if v, ok := in.DesiredReplicasAnnotationOverride[r.Name]; ok {
					desired = v
				}
				model.SetReplicasAnnotations(rs, desired, desired+model.MaxSurge(old))
				return rs
			}
			var objs []runtime.Object
			var newOne *appsv1.ReplicaSet
			if in.NewRS != nil {
				newOne = annotate(*in.NewRS)
				objs = append(objs, newOne)
			}
			var olds []*appsv1.ReplicaSet
			for _, r := range in.OldRSs {
				rs := annotate(r)
				olds = append(olds, rs)
				objs = append(objs, rs)
			}
			f := newFixture(t, objs...)

			if err := f.c.scale(context.Background(), d, newOne, olds); err != nil {
				t.Fatal(err)
			}

			// Sizes after the test: the original ones, overridden by every
			// update except those the upstream test treats as failed.
			size := map[string]int32{}
			for _, rs := range append(slices.Clone(olds), newOne) {
				if rs != nil {
					size[rs.Name] = *rs.Spec.Replicas
				}
			}
			for _, u := range f.rsUpdates() {
				if !slices.Contains(want.IgnoreUpdatesTo, u.Name) {
					size[u.Name] = *u.Spec.Replicas
				}
			}
			if want.NewRSReplicas != nil && newOne != nil && size[newOne.Name] != *want.NewRSReplicas {
				t.Errorf("new ReplicaSet %s: %d replicas, want %d", newOne.Name, size[newOne.Name], *want.NewRSReplicas)
			}
			if len(want.OldRSReplicas) != len(olds) {
				t.Fatalf("case lists %d old sizes for %d old ReplicaSets", len(want.OldRSReplicas), len(olds))
			}
			for i, rs := range olds {
				if size[rs.Name] != want.OldRSReplicas[i] {
					t.Errorf("old ReplicaSet %s: %d replicas, want %d", rs.Name, size[rs.Name], want.OldRSReplicas[i])
				}
			}
		})
	}
}

func TestUpstreamCleanupDeployment(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "cleanup_deployment") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				OldRSs []struct {
					Name                           string
					SpecReplicas, StatusReplicas   int32
					Generation, ObservedGeneration int64
					DeletionTimestamp              string
				}
				RevisionHistoryLimit int32
			}
			var want struct{ Deletions int }
			c.Decode(t, &in, &want)
			var olds []*appsv1.ReplicaSet
			for _, r := range in.OldRSs {
				rs := newRS(r.Name, r.SpecReplicas, cleanupSelector, noTimestamp)
				rs.Status.Replicas = r.StatusReplicas
				rs.Generation, rs.Status.ObservedGeneration = r.Generation, r.ObservedGeneration
				if r.DeletionTimestamp != "" {
					rs.DeletionTimestamp = &metav1.Time{Time: fixtureNow}
				}
				olds = append(olds, rs)
			}
			if got := cleanedUp(t, olds, in.RevisionHistoryLimit); len(got) != want.Deletions {
				t.Errorf("deleted %v, want %d deletions", got, want.Deletions)
			}
		})
	}
}

func TestUpstreamCleanupDeploymentOrder(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "cleanup_deployment_order") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				OldRSs []struct {
					Name                           string
					SpecReplicas, StatusReplicas   int32
					CreationTimestampOffsetMinutes int
					Revision                       string
				}
				RevisionHistoryLimit int32
			}
			var want struct{ DeletedRSs []string }
			c.Decode(t, &in, &want)
			var olds []*appsv1.ReplicaSet
			for _, r := range in.OldRSs {
				rs := newRS(r.Name, r.SpecReplicas, cleanupSelector, fixtureNow.Add(time.Duration(r.CreationTimestampOffsetMinutes)*time.Minute))
				rs.Status.Replicas = r.StatusReplicas
				if r.Revision != "" {
					rs.Annotations = map[string]string{model.RevisionAnnotation: r.Revision}
				}
				olds = append(olds, rs)
			}
			got := cleanedUp(t, olds, in.RevisionHistoryLimit)
			slices.Sort(got)
			wantSorted := slices.Sorted(slices.Values(want.DeletedRSs))
			if !slices.Equal(got, wantSorted) {
				t.Errorf("deleted %v, want %v", got, wantSorted)
			}
		})
	}
}

// cleanupSelector is the cleanup cases' deployment foo's selector.
var cleanupSelector = map[string]string{"foo": "bar"}

// cleanedUp runs cleanupDeployment over the old ReplicaSets of a
// deployment foo that keeps limit revisions, all in the API, and returns
// the names of those it deleted.
func cleanedUp(t *testing.T, olds []*appsv1.ReplicaSet, limit int32) []string {
	t.Helper()
	objs := make([]runtime.Object, len(olds))
	for i, rs := range olds {
		objs[i] = rs
	}
	f := newFixture(t, objs...)
	if err := f.c.cleanupDeployment(context.Background(), olds, newDeployment("foo", 1, &limit, nil, nil, cleanupSelector)); err != nil {
		t.Fatal(err)
	}
	return f.deleted()
}

// deleted lists the names of the objects deleted through the API.
func (f *fixture) deleted() []string {
	var out []string
	for _, a := range f.Client.Actions() {
		if d, ok := a.(interface{ GetName() string }); ok && a.GetVerb() == "delete" {
			out = append(out, d.GetName())
		}
	}
	return out
}
