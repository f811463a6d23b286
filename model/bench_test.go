package model_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
)

func BenchmarkNewRSNewReplicas(b *testing.B) {
	surge, unavailable := intstr.FromString("25%"), intstr.FromString("25%")
	d := rollingDeployment("RollingUpdate", ref(int32(100)), &surge, &unavailable)
	newRS := replicaSet("new", 40)
	all := []*appsv1.ReplicaSet{replicaSet("a", 30), replicaSet("b", 35), newRS}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.NewRSNewReplicas(d, all, newRS); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPodTemplateHash(b *testing.B) {
	t := template("registry.example.com/web:v2")
	b.ReportAllocs()
	for b.Loop() {
		_ = model.PodTemplateHash(&t, nil)
	}
}

func BenchmarkEqualIgnoreHash(b *testing.B) {
	a, c := template("web:v1"), template("web:v1")
	a.Labels[model.PodTemplateHashLabel] = "abc"
	b.ReportAllocs()
	for b.Loop() {
		if !model.EqualIgnoreHash(&a, &c) {
			b.Fatal("templates should be equal")
		}
	}
}
