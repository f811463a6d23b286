package kubelet

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A container with a readiness probe that is slow to become ready fails its
// probe as the kubelet's prober runs it — initialDelaySeconds after the
// start, then every periodSeconds — each failure a Warning Unhealthy event,
// until it is ready. A container without a probe records none.
func TestReadinessProbeFailsUntilReady(t *testing.T) {
	h := newHarness(t, 1, []ImageRule{{Match: "*", Start: time.Second, Ready: 40 * time.Second}}, Options{})
	h.addNode("n1", true)
	p := h.addPod("web", "n1", "web:v2")
	p, err := h.Client.CoreV1().Pods("default").Get(context.Background(), p.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.Spec.Containers[0].ReadinessProbe = &corev1.Probe{
		ProbeHandler:        corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(8080)}},
		InitialDelaySeconds: 5, PeriodSeconds: 10,
	}
	if _, err := h.Client.CoreV1().Pods("default").Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.addPod("plain", "n1", "web:v2")
	h.runFor(2 * time.Minute)

	// Started at 1s: probes fail at 6s, 16s, 26s and 36s; ready at 41s.
	n := 0
	for _, e := range h.Events.Lines {
		if e == "Warning Unhealthy Readiness probe failed: HTTP probe failed with statuscode: 503" {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d Unhealthy events, want 4 (a probe every 10s from 5s after the start until ready at 40s): %q", n, h.Events.Lines)
	}
	for _, name := range []string{"web", "plain"} {
		got, _ := h.Client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
		if len(got.Status.ContainerStatuses) == 0 || !got.Status.ContainerStatuses[0].Ready {
			t.Errorf("%s is not ready after 2m: %+v", name, got.Status.ContainerStatuses)
		}
	}
}
