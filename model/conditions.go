package model

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NewDeploymentCondition is a condition stamped with now as both its update
// and transition time.
func NewDeploymentCondition(t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, message string, now time.Time) appsv1.DeploymentCondition {
	ts := metav1.NewTime(now)
	return appsv1.DeploymentCondition{
		Type: t, Status: status, Reason: reason, Message: message,
		LastUpdateTime: ts, LastTransitionTime: ts,
	}
}

// GetDeploymentCondition returns the condition of type t, or nil.
func GetDeploymentCondition(s appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// SetDeploymentCondition sets c, replacing the condition of its type. A
// condition with the same status and reason is left as it is (so its times
// stand); one with the same status keeps its lastTransitionTime. The new
// condition goes last, as upstream orders them.
func SetDeploymentCondition(s *appsv1.DeploymentStatus, c appsv1.DeploymentCondition) {
	cur := GetDeploymentCondition(*s, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	s.Conditions = append(withoutCondition(s.Conditions, c.Type), c)
}

// removeDeploymentCondition drops the condition of type t.
func removeDeploymentCondition(s *appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) {
	s.Conditions = withoutCondition(s.Conditions, t)
}

func withoutCondition(cs []appsv1.DeploymentCondition, t appsv1.DeploymentConditionType) []appsv1.DeploymentCondition {
	var out []appsv1.DeploymentCondition
	for _, c := range cs {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// replicaSetToDeploymentCondition lifts a ReplicaSet condition (a
// ReplicaFailure) onto the deployment.
func replicaSetToDeploymentCondition(c appsv1.ReplicaSetCondition) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{
		Type: appsv1.DeploymentConditionType(c.Type), Status: c.Status,
		Reason: c.Reason, Message: c.Message,
		LastUpdateTime: c.LastTransitionTime, LastTransitionTime: c.LastTransitionTime,
	}
}
