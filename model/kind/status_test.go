package kind_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
	"rollscope/model/kind"
)

func TestSettled(t *testing.T) {
	three, two := int32(3), int32(2)
	set := func(updated int32, partition *int32) *appsv1.StatefulSet {
		return &appsv1.StatefulSet{
			Spec: appsv1.StatefulSetSpec{Replicas: &three, UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
				Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: partition}}},
			Status: appsv1.StatefulSetStatus{Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, UpdatedReplicas: updated},
		}
	}
	daemons := func(misscheduled int32) *appsv1.DaemonSet {
		return &appsv1.DaemonSet{
			Spec:   appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType}},
			Status: appsv1.DaemonSetStatus{DesiredNumberScheduled: 4, CurrentNumberScheduled: 4, NumberAvailable: 4, UpdatedNumberScheduled: 4, NumberMisscheduled: misscheduled},
		}
	}
	rc := func(annotations map[string]string) *corev1.ReplicationController {
		return &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Annotations: annotations}, Status: corev1.ReplicationControllerStatus{Replicas: 1}}
	}
	for _, c := range []struct {
		name string
		obj  any
		want bool
	}{
		{"statefulset updated", set(3, nil), true},
		{"statefulset rolling", set(1, nil), false},
		// Ordinals 2 and up run the update revision: done.
		{"statefulset partitioned", set(1, &two), true},
		{"daemonset updated", daemons(0), true},
		{"daemonset misscheduled", daemons(1), false},
		{"replicationcontroller", rc(nil), true},
		{"replicationcontroller in a rolling update", rc(map[string]string{model.RCSourceAnnotation: "web"}), false},
	} {
		w, _ := kind.Of(c.obj)
		if got := w.Settled(); got != c.want {
			t.Errorf("%s: settled %v, want %v", c.name, got, c.want)
		}
	}
}
