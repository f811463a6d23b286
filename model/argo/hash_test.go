package argo_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	sigsyaml "sigs.k8s.io/yaml"

	"rollscope/model/argo"
)

// The hashes below are what Argo Rollouts v1.10.1's own
// hash.ComputePodTemplateHash and conditions.ComputeStepHash print for the
// same template and steps.

func template(image string) *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "checkout"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}}}
}

func TestPodTemplateHashIsArgos(t *testing.T) {
	one := int32(1)
	for _, c := range []struct {
		image     string
		collision *int32
		want      string
	}{
		{"shop/checkout:v1", nil, "84c59b574b"},
		{"shop/checkout:v2", nil, "6497f57d99"},
		{"shop/checkout:v1", &one, "6794755b55"},
	} {
		if got := argo.PodTemplateHash(template(c.image), c.collision); got != c.want {
			t.Errorf("%s collision %v: %s, Argo's %s", c.image, c.collision, got, c.want)
		}
	}
}

func TestStepHashIsArgos(t *testing.T) {
	// Written as a user writes it, in another key order than Argo's types:
	// the hash follows Argo's field order all the same.
	var ro argo.Rollout
	manifest := `spec:
  strategy:
    canary:
      steps:
      - setWeight: 20
      - pause: {}
      - setWeight: 50
      - pause: {duration: 10s}
      - setWeight: 100
`
	if err := sigsyaml.Unmarshal([]byte(manifest), &ro); err != nil {
		t.Fatal(err)
	}
	if got := argo.StepHash(&ro); got != "847f68467" {
		t.Errorf("steps: %s, Argo's 847f68467", got)
	}
	five := int32(5)
	ro.Spec.Strategy.Canary.Steps = append(ro.Spec.Strategy.Canary.Steps, argo.CanaryStep{SetCanaryScale: &argo.SetCanaryScale{Replicas: &five}})
	if got := argo.StepHash(&ro); got != "8494686cf9" {
		t.Errorf("steps with setCanaryScale: %s, Argo's 8494686cf9", got)
	}
	ro.Spec.Strategy.Canary.Steps = nil
	if got := argo.StepHash(&ro); got != "5ffbfbbd64" {
		t.Errorf("no steps: %s, Argo's 5ffbfbbd64", got)
	}
	d := intstr.FromString("10s")
	bg := argo.Rollout{Spec: argo.RolloutSpec{Strategy: argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{}, Canary: &argo.CanaryStrategy{Steps: []argo.CanaryStep{{Pause: &argo.RolloutPause{Duration: &d}}}}}}}
	if got := argo.StepHash(&bg); got != "" {
		t.Errorf("blue/green: %q, Argo's empty", got)
	}
}
