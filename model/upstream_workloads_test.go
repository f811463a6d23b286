package model_test

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/upstreamcases"
)

func TestUpstreamStatefulSetMaxUnavailable(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "sts_max_unavailable") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				MaxUnavailable *intstr.IntOrString
				ReplicaCount   int
			}
			var want struct{ MaxUnavailable int }
			c.Decode(t, &in, &want)
			got, err := model.StatefulSetMaxUnavailable(in.MaxUnavailable, in.ReplicaCount)
			if err != nil || got != want.MaxUnavailable {
				t.Errorf("StatefulSetMaxUnavailable(%v, %d) = %d, %v; want %d", in.MaxUnavailable, in.ReplicaCount, got, err, want.MaxUnavailable)
			}
		})
	}
}

func TestUpstreamStatefulSetRolloutStatus(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "sts_rollout_status") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Generation int64
				Replicas   int32
				Strategy   appsv1.StatefulSetUpdateStrategy
				Status     appsv1.StatefulSetStatus
			}
			var want struct {
				Msg   string
				Done  bool
				Error bool
			}
			c.Decode(t, &in, &want)
			set := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: &in.Replicas, UpdateStrategy: in.Strategy}, Status: in.Status}
			set.Name, set.Generation = "foo", in.Generation
			msg, done, err := model.StatefulSetRolloutStatus(set)
			if (err != nil) != want.Error || msg != want.Msg || (done && !want.Done) {
				t.Errorf("got %q, %v, %v; want %q, %v, error %v", msg, done, err, want.Msg, want.Done, want.Error)
			}
		})
	}
}

func TestUpstreamDaemonSetRolloutStatus(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "ds_rollout_status") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Generation int64
				Strategy   appsv1.DaemonSetUpdateStrategyType
				Status     appsv1.DaemonSetStatus
			}
			var want struct {
				Msg   string
				Done  bool
				Error string
			}
			c.Decode(t, &in, &want)
			ds := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: in.Strategy}}, Status: in.Status}
			ds.Name, ds.Generation = "foo", in.Generation
			msg, done, err := model.DaemonSetRolloutStatus(ds)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != want.Error || msg != want.Msg || (want.Error == "" && done != want.Done) {
				t.Errorf("got %q, %v, %q; want %q, %v, %q", msg, done, gotErr, want.Msg, want.Done, want.Error)
			}
		})
	}
}

func TestUpstreamStatefulSetUpdateVictims(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "sts_update_victims") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Replicas       []model.StatefulReplica
				Partition      int
				MaxUnavailable int
			}
			var want struct {
				Deleted int
				Victims []int
			}
			c.Decode(t, &in, &want)
			got := model.StatefulSetUpdateVictims(in.Replicas, in.Partition, in.MaxUnavailable)
			if len(got) != want.Deleted || (want.Victims != nil && !slices.Equal(got, want.Victims)) {
				t.Errorf("victims %v, want %d of them %v", got, want.Deleted, want.Victims)
			}
		})
	}
}
