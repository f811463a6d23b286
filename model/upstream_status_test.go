package model_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/upstreamcases"
)

func TestUpstreamDeploymentComplete(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "deployment_complete") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				SpecReplicas, StatusReplicas, UpdatedReplicas, AvailableReplicas int32
				MaxSurge, MaxUnavailable                                         *intstr.IntOrString
				Generation, ObservedGeneration                                   int64
			}
			var want struct{ Complete bool }
			c.Decode(t, &in, &want)
			d := rollingDeployment("RollingUpdate", &in.SpecReplicas, in.MaxSurge, in.MaxUnavailable)
			d.Generation = in.Generation
			d.Status = appsv1.DeploymentStatus{
				Replicas: in.StatusReplicas, UpdatedReplicas: in.UpdatedReplicas,
				AvailableReplicas: in.AvailableReplicas, ObservedGeneration: in.ObservedGeneration,
			}
			if got := model.DeploymentComplete(d, &d.Status); got != want.Complete {
				t.Errorf("DeploymentComplete = %v, want %v", got, want.Complete)
			}
		})
	}
}

type statusCounts struct {
	Replicas, UpdatedReplicas, ReadyReplicas, AvailableReplicas int32
}

func (s statusCounts) status() appsv1.DeploymentStatus {
	return appsv1.DeploymentStatus{
		Replicas: s.Replicas, UpdatedReplicas: s.UpdatedReplicas,
		ReadyReplicas: s.ReadyReplicas, AvailableReplicas: s.AvailableReplicas,
	}
}

func TestUpstreamDeploymentProgressing(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "deployment_progressing") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct{ OldStatus, NewStatus statusCounts }
			var want struct{ Progressing bool }
			c.Decode(t, &in, &want)
			d := &appsv1.Deployment{Status: in.OldStatus.status()}
			s := in.NewStatus.status()
			if got := model.DeploymentProgressing(d, &s); got != want.Progressing {
				t.Errorf("DeploymentProgressing = %v, want %v", got, want.Progressing)
			}
		})
	}
}

type conditionInput struct {
	Type           appsv1.DeploymentConditionType
	Status         corev1.ConditionStatus
	Reason         string
	LastUpdateTime *time.Time
}

func (c conditionInput) condition() appsv1.DeploymentCondition {
	cond := appsv1.DeploymentCondition{Type: c.Type, Status: c.Status, Reason: c.Reason}
	if cond.Type == "" {
		cond.Type = appsv1.DeploymentProgressing
	}
	if c.LastUpdateTime != nil {
		cond.LastUpdateTime = metav1.NewTime(*c.LastUpdateTime)
	}
	return cond
}

func TestUpstreamDeploymentTimedOut(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "deployment_timed_out") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				ProgressDeadlineSeconds *int32
				ProgressingCondition    conditionInput
				Now                     *time.Time
			}
			var want struct{ TimedOut bool }
			c.Decode(t, &in, &want)
			d := &appsv1.Deployment{}
			d.Spec.ProgressDeadlineSeconds = in.ProgressDeadlineSeconds
			d.Status.Conditions = []appsv1.DeploymentCondition{in.ProgressingCondition.condition()}
			var now time.Time
			if in.Now != nil {
				now = *in.Now
			}
			if got := model.DeploymentTimedOut(now, d, &d.Status); got != want.TimedOut {
				t.Errorf("DeploymentTimedOut = %v, want %v", got, want.TimedOut)
			}
		})
	}
}

func TestUpstreamReplicasAnnotationsNeedUpdate(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "replicas_annotations_need_update") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Annotations                  map[string]string
				DesiredReplicas, MaxReplicas int32
			}
			var want struct{ NeedUpdate bool }
			c.Decode(t, &in, &want)
			rs := &appsv1.ReplicaSet{}
			rs.Annotations = in.Annotations
			if got := model.ReplicasAnnotationsNeedUpdate(rs, in.DesiredReplicas, in.MaxReplicas); got != want.NeedUpdate {
				t.Errorf("ReplicasAnnotationsNeedUpdate = %v, want %v", got, want.NeedUpdate)
			}
		})
	}
}

var callPattern = regexp.MustCompile(`^SetNewReplicaSetAnnotations\(d, rs, newRevision='(\d+)', exists=(true|false), revHistoryLimitInChars=(\d+)\)$`)

func TestUpstreamRevisionHistoryAnnotation(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "revision_history_annotation") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				DeploymentAnnotations  map[string]string
				RsAnnotationsInitially map[string]string
				Calls                  []struct {
					Call                    string
					ExpectedRevision        string
					ExpectedRevisionHistory string
				}
				Call               string
				DeploymentReplicas int32
				RS                 struct {
					SpecReplicas, AvailableReplicas int32
					DesiredReplicas                 string `json:"desired-replicas"`
				}
			}
			var want struct {
				Updated         bool
				DesiredReplicas string `json:"desired-replicas"`
				MaxReplicas     string `json:"max-replicas"`
				Saturated       *bool
			}
			c.Decode(t, &in, &want)
			switch {
			case len(in.Calls) > 0:
				d := &appsv1.Deployment{}
				d.Annotations = in.DeploymentAnnotations
				rs := &appsv1.ReplicaSet{}
				rs.Annotations = in.RsAnnotationsInitially
				for _, call := range in.Calls {
					m := callPattern.FindStringSubmatch(call.Call)
					if m == nil {
						t.Fatalf("cannot read call %q", call.Call)
					}
					limit, _ := strconv.Atoi(m[3])
					model.SetNewReplicaSetAnnotations(d, rs, m[1], m[2] == "true", limit)
					if got := rs.Annotations[model.RevisionAnnotation]; got != call.ExpectedRevision {
						t.Errorf("after %s: revision %q, want %q", call.Call, got, call.ExpectedRevision)
					}
					if call.ExpectedRevisionHistory == "(not asserted)" {
						continue
					}
					if got := rs.Annotations[model.RevisionHistoryAnnotation]; got != call.ExpectedRevisionHistory {
						t.Errorf("after %s: revision history %q, want %q", call.Call, got, call.ExpectedRevisionHistory)
					}
				}
			case in.Call == "SetReplicasAnnotations(rs, 10, 11)":
				rs := &appsv1.ReplicaSet{}
				updated := model.SetReplicasAnnotations(rs, 10, 11)
				if updated != want.Updated || rs.Annotations[model.DesiredReplicasAnnotation] != want.DesiredReplicas ||
					rs.Annotations[model.MaxReplicasAnnotation] != want.MaxReplicas {
					t.Errorf("SetReplicasAnnotations = %v with %v; want %v, desired %s, max %s",
						updated, rs.Annotations, want.Updated, want.DesiredReplicas, want.MaxReplicas)
				}
			case want.Saturated != nil:
				d := rollingDeployment("RollingUpdate", &in.DeploymentReplicas, nil, nil)
				rs := replicaSet("rs", in.RS.SpecReplicas)
				rs.Status.AvailableReplicas = in.RS.AvailableReplicas
				rs.Annotations = map[string]string{model.DesiredReplicasAnnotation: in.RS.DesiredReplicas}
				if got := model.IsSaturated(d, rs); got != *want.Saturated {
					t.Errorf("IsSaturated = %v, want %v", got, *want.Saturated)
				}
			default:
				t.Fatalf("case shape not understood: %s", c.Input)
			}
		})
	}
}
