package model_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/upstreamcases"
)

// rollingDeployment builds a deployment with the given strategy, replicas
// (nil allowed) and rolling parameters.
func rollingDeployment(strategy string, replicas *int32, maxSurge, maxUnavailable *intstr.IntOrString) *appsv1.Deployment {
	d := &appsv1.Deployment{}
	d.Name = "foo"
	d.Spec.Replicas = replicas
	d.Spec.Strategy.Type = appsv1.DeploymentStrategyType(strategy)
	if strategy == string(appsv1.RollingUpdateDeploymentStrategyType) {
		d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: maxSurge, MaxUnavailable: maxUnavailable}
	}
	return d
}

func TestUpstreamResolveFenceposts(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "resolve_fenceposts") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				MaxSurge, MaxUnavailable *intstr.IntOrString
				Desired                  int32
			}
			var want struct {
				Surge, Unavailable int32
				Error              bool
			}
			c.Decode(t, &in, &want)
			s, u, err := model.ResolveFenceposts(in.MaxSurge, in.MaxUnavailable, in.Desired)
			if (err != nil) != want.Error || s != want.Surge || u != want.Unavailable {
				t.Errorf("ResolveFenceposts(%v, %v, %d) = %d, %d, %v; want %d, %d, error %v",
					in.MaxSurge, in.MaxUnavailable, in.Desired, s, u, err, want.Surge, want.Unavailable, want.Error)
			}
		})
	}
}

type strategyInput struct {
	Strategy                 string
	Replicas                 *int32
	MaxSurge, MaxUnavailable *intstr.IntOrString
}

func TestUpstreamMaxUnavailable(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "max_unavailable") {
		t.Run(c.Name(), func(t *testing.T) {
			var in strategyInput
			var want struct{ MaxUnavailable int32 }
			c.Decode(t, &in, &want)
			d := rollingDeployment(in.Strategy, in.Replicas, in.MaxSurge, in.MaxUnavailable)
			if got := model.MaxUnavailable(d); got != want.MaxUnavailable {
				t.Errorf("MaxUnavailable = %d, want %d", got, want.MaxUnavailable)
			}
		})
	}
}

func TestUpstreamMinAvailable(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "min_available") {
		t.Run(c.Name(), func(t *testing.T) {
			var in strategyInput
			var want struct{ MinAvailable int32 }
			c.Decode(t, &in, &want)
			d := rollingDeployment(in.Strategy, in.Replicas, in.MaxSurge, in.MaxUnavailable)
			if got := model.MinAvailable(d); got != want.MinAvailable {
				t.Errorf("MinAvailable = %d, want %d", got, want.MinAvailable)
			}
		})
	}
}

func TestUpstreamNewRSNewReplicas(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "new_rs_new_replicas") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Strategy                 string
				DeploymentReplicas       int32
				MaxSurge, MaxUnavailable *intstr.IntOrString
				NewRSReplicas            int32
				AllRSsReplicas           []int32
			}
			var want struct{ NewReplicas int32 }
			c.Decode(t, &in, &want)
			d := rollingDeployment(in.Strategy, &in.DeploymentReplicas, in.MaxSurge, in.MaxUnavailable)
			if in.Strategy == string(appsv1.RecreateDeploymentStrategyType) {
				// The upstream test sets the rolling parameters whatever the type.
				d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: in.MaxSurge, MaxUnavailable: in.MaxUnavailable}
			}
			newRS := replicaSet("new", in.NewRSReplicas)
			var all []*appsv1.ReplicaSet
			for i, n := range in.AllRSsReplicas {
				all = append(all, replicaSet("old-"+string(rune('a'+i)), n))
			}
			got, err := model.NewRSNewReplicas(d, all, newRS)
			if err != nil || got != want.NewReplicas {
				t.Errorf("NewRSNewReplicas = %d, %v; want %d", got, err, want.NewReplicas)
			}
		})
	}
}

func replicaSet(name string, replicas int32) *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{}
	rs.Name = name
	rs.Spec.Replicas = ref(replicas)
	return rs
}

type rsCounts struct {
	Name                string
	SpecReplicas        int32
	StatusReplicas      int32
	ObservedGeneration  int64
	TerminatingReplicas *int32
}

func (r rsCounts) replicaSet() *appsv1.ReplicaSet {
	rs := replicaSet(r.Name, r.SpecReplicas)
	rs.Status.Replicas = r.StatusReplicas
	rs.Status.ObservedGeneration = r.ObservedGeneration
	rs.Status.TerminatingReplicas = r.TerminatingReplicas
	return rs
}

func TestUpstreamReplicaCounts(t *testing.T) {
	for _, group := range []string{"replica_counts", "replica_counts_terminating"} {
		for _, c := range upstreamcases.ByGroup(t, group) {
			t.Run(c.Name(), func(t *testing.T) {
				var in struct{ ReplicaSets []rsCounts }
				var want struct {
					Spec   int32 `json:"GetReplicaCountForReplicaSets"`
					Actual int32 `json:"GetActualReplicaCountForReplicaSets"`
				}
				c.Decode(t, &in, &want)
				var rss []*appsv1.ReplicaSet
				for _, r := range in.ReplicaSets {
					rss = append(rss, r.replicaSet())
				}
				if got := model.ReplicaCount(rss); got != want.Spec {
					t.Errorf("ReplicaCount = %d, want %d", got, want.Spec)
				}
				if got := model.ActualReplicaCount(rss); got != want.Actual {
					t.Errorf("ActualReplicaCount = %d, want %d", got, want.Actual)
				}
			})
		}
	}
}
