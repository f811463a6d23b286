package model_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

func TestPodTemplateHash(t *testing.T) {
	a, b := template("v1"), template("v2")
	ha := model.PodTemplateHash(&a, nil)
	if ha != model.PodTemplateHash(&a, nil) {
		t.Fatal("PodTemplateHash is not stable for the same template")
	}
	if ha == model.PodTemplateHash(&b, nil) {
		t.Error("different templates hash alike")
	}
	c0, c1 := model.PodTemplateHash(&a, ref(int32(0))), model.PodTemplateHash(&a, ref(int32(1)))
	if c0 == ha || c1 == c0 {
		t.Errorf("collision count does not change the hash: nil %s, 0 %s, 1 %s", ha, c0, c1)
	}
	// The decimal FNV sum, each digit mapped through the safe alphabet.
	for _, h := range []string{ha, c0, c1} {
		if h == "" || strings.Trim(h, "456789bcdf") != "" {
			t.Errorf("hash %q uses characters outside upstream's digit mapping", h)
		}
	}
	if model.PodTemplateHash(nil, nil) != model.PodTemplateHash(&corev1.PodTemplateSpec{}, nil) {
		t.Error("nil template should hash as the empty template")
	}
}

func TestEqualIgnoreHash(t *testing.T) {
	a, b := template("v1"), template("v1")
	a.Labels[model.PodTemplateHashLabel] = "x"
	if !model.EqualIgnoreHash(&a, &b) {
		t.Error("templates differing only in pod-template-hash should be equal")
	}
	if _, ok := a.Labels[model.PodTemplateHashLabel]; !ok {
		t.Error("EqualIgnoreHash modified its argument")
	}
	c := template("v2")
	if model.EqualIgnoreHash(&a, &c) {
		t.Error("templates with different images compare equal")
	}
}
