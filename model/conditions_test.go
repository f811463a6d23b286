package model_test

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

func TestSetDeploymentCondition(t *testing.T) {
	t0, t1 := epoch, epoch.Add(time.Minute)
	var s appsv1.DeploymentStatus
	model.SetDeploymentCondition(&s, model.NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue, "A", "a", t0))
	model.SetDeploymentCondition(&s, model.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, "P", "p", t0))

	// Same status and reason: nothing changes, not even the update time.
	model.SetDeploymentCondition(&s, model.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, "P", "p2", t1))
	if c := model.GetDeploymentCondition(s, appsv1.DeploymentProgressing); c.Message != "p" || !c.LastUpdateTime.Time.Equal(t0) {
		t.Errorf("same status and reason replaced the condition: %+v", c)
	}
	// Same status, new reason: replaced but keeps its transition time; goes last.
	model.SetDeploymentCondition(&s, model.NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue, "B", "b", t1))
	c := model.GetDeploymentCondition(s, appsv1.DeploymentAvailable)
	if c.Reason != "B" || !c.LastTransitionTime.Time.Equal(t0) || !c.LastUpdateTime.Time.Equal(t1) {
		t.Errorf("same status, new reason: %+v", c)
	}
	if s.Conditions[1].Type != appsv1.DeploymentAvailable {
		t.Errorf("replaced condition should go last: %v", s.Conditions)
	}
	// New status: new transition time.
	model.SetDeploymentCondition(&s, model.NewDeploymentCondition(appsv1.DeploymentAvailable, corev1.ConditionFalse, "C", "c", t1))
	if c := model.GetDeploymentCondition(s, appsv1.DeploymentAvailable); !c.LastTransitionTime.Time.Equal(t1) {
		t.Errorf("status change kept the old transition time: %+v", c)
	}
	model.RemoveDeploymentCondition(&s, appsv1.DeploymentAvailable)
	if model.GetDeploymentCondition(s, appsv1.DeploymentAvailable) != nil || len(s.Conditions) != 1 {
		t.Errorf("RemoveDeploymentCondition left %v", s.Conditions)
	}
}

func TestProgressCheckAfter(t *testing.T) {
	d := rollingDeployment("RollingUpdate", ref(int32(3)), nil, nil)
	d.Spec.ProgressDeadlineSeconds = ref(int32(60))
	d.Status.Conditions = []appsv1.DeploymentCondition{
		model.NewDeploymentCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, model.ReasonReplicaSetUpdated, "", epoch),
	}
	s := appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}
	if after, ok := model.ProgressCheckAfter(epoch.Add(20*time.Second), d, &s); !ok || after != 40*time.Second {
		t.Errorf("ProgressCheckAfter = %v, %v; want 40s", after, ok)
	}
	s.AvailableReplicas = 3
	if _, ok := model.ProgressCheckAfter(epoch, d, &s); ok {
		t.Error("a complete rollout needs no progress check")
	}
}
