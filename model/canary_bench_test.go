package model_test

import (
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// The gates of a 200-pod step, judged on every change of a canary's pods
// by the controller and on every frame's view by the console.
func BenchmarkEvaluateCanaryGates200(b *testing.B) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pods := make([]model.CanaryPod, 200)
	for i := range pods {
		pods[i] = model.CanaryPod{Name: fmt.Sprintf("web-%03d", i), Ready: true, ReadySince: start.Add(time.Duration(i) * time.Second)}
	}
	warnings := []model.CanaryWarning{{Pod: "other", Reason: "BackOff", Count: 2}}
	b.ReportAllocs()
	for b.Loop() {
		if g := model.EvaluateCanaryGates(200, start, 10*time.Minute, true, pods, warnings, start.Add(time.Hour)); !g.Healthy {
			b.Fatal(g)
		}
	}
}

// Reading a Deployment's canary and telling it from a stale copy: what a
// trace line and the console's rollout view pay per canary Deployment.
func BenchmarkReadCurrentCanary(b *testing.B) {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: map[string]string{}}}
	d.Spec.Template = template("registry.example.com/web:v2")
	deadline := int32(600)
	c := model.Canary{Plan: model.CanaryPlan{Change: "set image app=registry.example.com/web:v2", Replicas: 200,
		Steps:     []model.CanaryStep{{Spec: "1", Pods: 1, Hold: "pause"}, {Spec: "25%", Pods: 50, Hold: "2m0s"}, {Spec: "100%", Pods: 200}},
		OnFailure: model.CanaryOnFailurePause, Original: model.CanaryOriginal{ProgressDeadlineSeconds: &deadline},
		Template: model.PodTemplateHash(&d.Spec.Template, nil)},
		State: model.CanaryState{Step: 2, Phase: model.CanaryHolding},
		Lease: model.CanaryLease{Holder: "rollscope@host/1", Renewed: time.Now()}}
	c.Write(&d.ObjectMeta)
	model.HoldCanaryStep(d, 50)
	b.ReportAllocs()
	for b.Loop() {
		got, ok, err := model.ReadCanary(d)
		if err != nil || !ok || !model.CanaryCurrent(d, got) {
			b.Fatal(ok, err)
		}
	}
}
