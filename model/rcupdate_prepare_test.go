package model_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// In kubectl's order the old controller names its next controller before
// it records original-replicas: the prepare phase's goal is then its size.
func TestDescribeRCUpdatePrepareGoal(t *testing.T) {
	size := int32(10)
	for _, tc := range []struct {
		name        string
		annotations map[string]string
		want        int32
	}{
		{"next named, original not yet written", map[string]string{model.RCNextAnnotation: "web-next"}, 10},
		{"original written", map[string]string{model.RCNextAnnotation: "web-next", model.RCOriginalAnnotation: "7"}, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: tc.annotations},
				Spec: corev1.ReplicationControllerSpec{Replicas: &size}}
			s, ok := model.DescribeRCUpdate([]*corev1.ReplicationController{rc}, "web")
			if !ok || s.Phase != model.RCPhasePrepare || s.Desired != tc.want {
				t.Errorf("got %+v (ok %v), want phase prepare, desired %d", s, ok, tc.want)
			}
		})
	}
}
