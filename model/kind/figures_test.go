package kind_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/kind"
)

// The fleet calls a rollout moving when its figures change: a copy keeps
// them, a new generation or a status count moves them.
func TestFiguresMoveWithGenerationAndStatus(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "db", Generation: 2}
	cases := []struct {
		obj, same, newGeneration, newCount any
	}{
		{
			&appsv1.Deployment{ObjectMeta: meta, Status: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 2}},
			&appsv1.Deployment{ObjectMeta: meta, Status: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 2}},
			&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "db", Generation: 3}, Status: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 2}},
			&appsv1.Deployment{ObjectMeta: meta, Status: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3}},
		},
		{
			&corev1.ReplicationController{ObjectMeta: meta, Status: corev1.ReplicationControllerStatus{Replicas: 3, AvailableReplicas: 2}},
			&corev1.ReplicationController{ObjectMeta: meta, Status: corev1.ReplicationControllerStatus{Replicas: 3, AvailableReplicas: 2}},
			nil, // a controller's figures are its replicas and status counts only
			&corev1.ReplicationController{ObjectMeta: meta, Status: corev1.ReplicationControllerStatus{Replicas: 3, AvailableReplicas: 3}},
		},
		{
			&appsv1.StatefulSet{ObjectMeta: meta, Status: appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 1, ReadyReplicas: 3}},
			&appsv1.StatefulSet{ObjectMeta: meta, Status: appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 1, ReadyReplicas: 3}},
			&appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Generation: 3}, Status: appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 1, ReadyReplicas: 3}},
			&appsv1.StatefulSet{ObjectMeta: meta, Status: appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 2, ReadyReplicas: 3}},
		},
		{
			&appsv1.DaemonSet{ObjectMeta: meta, Status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, NumberReady: 3}},
			&appsv1.DaemonSet{ObjectMeta: meta, Status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, NumberReady: 3}},
			&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Generation: 3}, Status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, NumberReady: 3}},
			&appsv1.DaemonSet{ObjectMeta: meta, Status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 4, NumberReady: 3}},
		},
	}
	figures := func(o any) [4]int64 {
		w, ok := kind.Of(o)
		if !ok {
			t.Fatalf("Of(%T) is not a workload", o)
		}
		return w.Figures()
	}
	for _, c := range cases {
		was := figures(c.obj)
		if figures(c.same) != was {
			t.Errorf("%T: a copy's figures differ", c.obj)
		}
		if c.newGeneration != nil && figures(c.newGeneration) == was {
			t.Errorf("%T: a new generation leaves the figures as they were", c.obj)
		}
		if figures(c.newCount) == was {
			t.Errorf("%T: a status count moved and the figures did not", c.obj)
		}
	}
}
