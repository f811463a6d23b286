package deployment

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/control/controltest"
	"rollscope/model"
	"rollscope/model/upstreamcases"
)

type conditionInput struct {
	Type               appsv1.DeploymentConditionType
	Status             corev1.ConditionStatus
	Reason             string
	LastUpdateTime     *time.Time
	LastTransitionTime *time.Time
}

func (c conditionInput) condition() appsv1.DeploymentCondition {
	cond := appsv1.DeploymentCondition{Type: c.Type, Status: c.Status, Reason: c.Reason}
	if c.LastUpdateTime != nil {
		cond.LastUpdateTime = metav1.NewTime(*c.LastUpdateTime)
	}
	if c.LastTransitionTime != nil {
		cond.LastTransitionTime = metav1.NewTime(*c.LastTransitionTime)
	}
	return cond
}

func conditions(in []conditionInput) []appsv1.DeploymentCondition {
	var out []appsv1.DeploymentCondition
	for _, c := range in {
		out = append(out, c.condition())
	}
	return out
}

// progressDeployment mirrors upstream's currentDeployment helper.
func progressDeployment(pds *int32, replicas int32, strategy appsv1.DeploymentStrategyType, generation int64, status appsv1.DeploymentStatus) *appsv1.Deployment {
	if strategy == "" {
		strategy = appsv1.RecreateDeploymentStrategyType
	}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "progress-test", Namespace: metav1.NamespaceDefault, UID: "uid-progress-test", Generation: generation},
		Spec: appsv1.DeploymentSpec{
			ProgressDeadlineSeconds: pds,
			Replicas:                &replicas,
			Strategy:                appsv1.DeploymentStrategy{Type: strategy},
		},
		Status: status,
	}
}

type rsStatusInput struct {
	Name                                            string
	SpecReplicas, StatusReplicas, AvailableReplicas int32
}

func (r rsStatusInput) build() *appsv1.ReplicaSet {
	rs := newRS(r.Name, r.SpecReplicas, nil, noTimestamp)
	rs.Status.Replicas, rs.Status.AvailableReplicas = r.StatusReplicas, r.AvailableReplicas
	return rs
}

func TestUpstreamSyncRolloutStatus(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "sync_rollout_status") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Deployment struct {
					ProgressDeadlineSeconds *int32
					Replicas                int32
					Strategy                appsv1.DeploymentStrategyType
					Generation              int64
					Status                  struct {
						Replicas, UpdatedReplicas, AvailableReplicas int32
						ObservedGeneration                           int64
					}
					Conditions []conditionInput
				}
				Others []rsStatusInput `json:"allRSs(besides newRS)"`
				NewRS  *rsStatusInput
			}
			var want struct {
				ProgressingCondition *struct {
					Status corev1.ConditionStatus
					Reason string
				}
			}
			c.Decode(t, &in, &want)
			s := in.Deployment.Status
			d := progressDeployment(in.Deployment.ProgressDeadlineSeconds, in.Deployment.Replicas, in.Deployment.Strategy, in.Deployment.Generation,
				appsv1.DeploymentStatus{Replicas: s.Replicas, UpdatedReplicas: s.UpdatedReplicas, AvailableReplicas: s.AvailableReplicas,
					ObservedGeneration: s.ObservedGeneration, Conditions: conditions(in.Deployment.Conditions)})
			var allRSs []*appsv1.ReplicaSet
			objs := []runtime.Object{d.DeepCopy()}
			for _, r := range in.Others {
				allRSs = append(allRSs, r.build())
			}
			var newOne *appsv1.ReplicaSet
			if in.NewRS != nil {
				newOne = in.NewRS.build()
				allRSs = append(allRSs, newOne)
			}
			f := newFixture(t, objs...)

			if err := f.c.syncRolloutStatus(context.Background(), allRSs, newOne, d); err != nil {
				t.Fatal(err)
			}
			// The condition on the deployment as written to the API (or, when
			// nothing needed writing, as it already was).
			got := model.GetDeploymentCondition(f.deployment(d.Name).Status, appsv1.DeploymentProgressing)
			if len(f.writes()) == 0 {
				got = model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing)
			}
			switch w := want.ProgressingCondition; {
			case w == nil && got != nil:
				t.Errorf("Progressing = %s/%s, want none", got.Status, got.Reason)
			case w != nil && got == nil:
				t.Errorf("no Progressing condition, want %s/%s", w.Status, w.Reason)
			case w != nil && (got.Status != w.Status || got.Reason != w.Reason):
				t.Errorf("Progressing = %s/%s, want %s/%s", got.Status, got.Reason, w.Status, w.Reason)
			}
			if w := want.ProgressingCondition; w != nil && got != nil && got.Reason == model.ReasonReplicaSetUpdated && len(in.Deployment.Conditions) > 0 {
				prev := in.Deployment.Conditions[0]
				// Progress refreshes lastUpdateTime; lastTransitionTime stays
				// while the condition was already True.
				if !got.LastUpdateTime.Time.Equal(fixtureNow) {
					t.Errorf("lastUpdateTime = %v, want now", got.LastUpdateTime)
				}
				if prev.Status == corev1.ConditionTrue && prev.LastTransitionTime != nil && !got.LastTransitionTime.Time.Equal(*prev.LastTransitionTime) {
					t.Errorf("lastTransitionTime = %v, want kept at %v", got.LastTransitionTime, *prev.LastTransitionTime)
				}
			}
		})
	}
}

func TestUpstreamRequeueStuckDeployment(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "requeue_stuck_deployment") {
		t.Run(c.Name(), func(t *testing.T) {
			type counts struct{ Replicas, UpdatedReplicas, AvailableReplicas int32 }
			var in struct {
				ProgressDeadlineSeconds *int32
				SpecReplicas            int32
				CurrentStatus           counts
				Conditions              []conditionInput
				NewStatus               counts
				Now                     *time.Time
			}
			var want struct{ RequeueAfterSeconds float64 }
			c.Decode(t, &in, &want)
			for i := range in.Conditions {
				if in.Conditions[i].Type == "" {
					in.Conditions[i].Type = appsv1.DeploymentProgressing
				}
			}
			cur := in.CurrentStatus
			d := progressDeployment(in.ProgressDeadlineSeconds, in.SpecReplicas, "", 0, appsv1.DeploymentStatus{
				Replicas: cur.Replicas, UpdatedReplicas: cur.UpdatedReplicas, AvailableReplicas: cur.AvailableReplicas,
				Conditions: conditions(in.Conditions),
			})
			s := appsv1.DeploymentStatus{Replicas: in.NewStatus.Replicas, UpdatedReplicas: in.NewStatus.UpdatedReplicas, AvailableReplicas: in.NewStatus.AvailableReplicas}
			f := newFixture(t)
			if in.Now != nil {
				f.Clock.SetTime(*in.Now)
			}

			got := f.c.requeueStuckDeployment(d, s)

			wantAfter := time.Duration(want.RequeueAfterSeconds * float64(time.Second))
			if want.RequeueAfterSeconds < 0 {
				wantAfter = -1
			}
			if got != wantAfter {
				t.Errorf("requeueStuckDeployment = %v, want %v", got, wantAfter)
			}
			var wantQueued []controltest.Delayed
			switch {
			case wantAfter == 0:
				wantQueued = []controltest.Delayed{{Key: "default/progress-test", Delay: rateLimitedRequeue}}
			case wantAfter > 0:
				wantQueued = []controltest.Delayed{{Key: "default/progress-test", Delay: wantAfter + time.Second}}
			}
			if len(f.Queue.After) != len(wantQueued) || (len(wantQueued) == 1 && f.Queue.After[0] != wantQueued[0]) {
				t.Errorf("queued %v, want %v", f.Queue.After, wantQueued)
			}
		})
	}
}
