package kubelet

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// A hollow node that restarts has only the pod status to go on; it must
// carry on from there without going back or skipping ahead.
func TestRestartedKubeletCarriesOnFromThePodStatus(t *testing.T) {
	rules := []ImageRule{
		{Match: "web:*", Pull: 2 * time.Second, Start: 3 * time.Second, Ready: 30 * time.Second},
		{Match: "*:broken", Start: time.Second, CrashLoop: true},
		{Match: "*:missing", Pull: time.Second, PullError: true},
	}
	h := newHarness(t, 1, rules, Options{})
	h.addNode("n1", true)
	h.addPod("web", "n1", "web:1")
	h.addPod("crash", "n1", "api:broken")
	h.addPod("pull", "n1", "app:missing")

	// At 20s: web is running (since 5s) and not ready; crash is in its second
	// back-off (20s from its crash at 14s); pull is in ImagePullBackOff.
	h.runFor(20 * time.Second)
	if w := h.mustPod("crash").Status.ContainerStatuses[0]; w.RestartCount != 2 || w.State.Waiting == nil {
		t.Fatalf("crash at 20s: %+v, want waiting with 2 restarts", w)
	}
	h.restartKubelet(rules)
	h.runFor(time.Minute)

	if got := h.firstTime("web", isReady); got != 35*time.Second {
		t.Errorf("web ready at %v, want 35s: 30s after its container started at 5s", got)
	}
	restartedAt := h.firstTime("crash", func(s *corev1.PodStatus) bool {
		return len(s.ContainerStatuses) > 0 && s.ContainerStatuses[0].RestartCount == 3
	})
	if restartedAt != 34*time.Second {
		t.Errorf("crash restarted for the third time at %v, want 34s (14s + 20s back-off from its status)", restartedAt)
	}
	// The pull back-off lives in memory, as upstream's does: a restarted
	// kubelet pulls again at once.
	var failedAfterRestart []time.Duration
	for _, s := range h.history["pull"] {
		w := s.status.ContainerStatuses
		if s.at.After(t0.Add(20*time.Second)) && len(w) > 0 && w[0].State.Waiting != nil && w[0].State.Waiting.Reason == "ErrImagePull" {
			failedAfterRestart = append(failedAfterRestart, s.at.Sub(t0))
		}
	}
	if len(failedAfterRestart) == 0 || failedAfterRestart[0] != 21*time.Second {
		t.Errorf("failed pulls after the restart at %v, want the first at 21s", failedAfterRestart)
	}
}
