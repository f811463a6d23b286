package kubelet

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// crashEntry is one entry into CrashLoopBackOff seen in a pod's history.
type crashEntry struct {
	at       time.Duration
	restarts int32
	message  string
}

func crashEntries(h *harness, pod string) []crashEntry {
	var out []crashEntry
	inBackOff := false
	for _, s := range h.history[pod] {
		c := s.status.ContainerStatuses
		now := len(c) > 0 && c[0].State.Waiting != nil && c[0].State.Waiting.Reason == "CrashLoopBackOff"
		if now && !inBackOff {
			out = append(out, crashEntry{s.at.Sub(t0), c[0].RestartCount, c[0].State.Waiting.Message})
		}
		inBackOff = now
	}
	return out
}

func TestCrashLoopBacksOffFrom10sDoublingTo5m(t *testing.T) {
	h := newHarness(t, 1, []ImageRule{{Match: "*:broken", Start: time.Second, CrashLoop: true}}, Options{})
	h.addNode("n1", true)
	h.addPod("api", "n1", "api:broken")
	h.runFor(25 * time.Minute)

	// As the upstream kubelet does, the first crash restarts at once; every
	// later one waits out a back-off of 10s doubling up to 5m.
	wantBackOff := []string{"10s", "20s", "40s", "1m20s", "2m40s", "5m0s", "5m0s"}
	got := crashEntries(h, "api")
	if len(got) < len(wantBackOff) {
		t.Fatalf("saw %d back-offs in 25m, want at least %d: %+v", len(got), len(wantBackOff), got)
	}
	for i, want := range wantBackOff {
		wantMsg := fmt.Sprintf("back-off %s restarting failed container=a pod=api_default(uid-api)", want)
		if got[i].message != wantMsg {
			t.Errorf("back-off %d: message %q, want %q", i+1, got[i].message, wantMsg)
		}
		if got[i].restarts != int32(i+1) {
			t.Errorf("back-off %d: restartCount %d, want %d", i+1, got[i].restarts, i+1)
		}
	}
	// Crashes come 1s after each start; a restart comes when the back-off ends.
	wantAt := []time.Duration{3 * time.Second}
	for i := 1; i < len(wantBackOff); i++ {
		d, _ := time.ParseDuration(wantBackOff[i-1])
		wantAt = append(wantAt, wantAt[i-1]+d+crashAfter)
	}
	for i, w := range wantAt {
		if got[i].at != w {
			t.Errorf("back-off %d entered at %v, want %v", i+1, got[i].at, w)
		}
	}

	p := h.mustPod("api")
	if p.Status.Phase != corev1.PodRunning {
		t.Errorf("a crash-looping pod is %s, want Running", p.Status.Phase)
	}
	for _, s := range h.history["api"] {
		if isReady(&s.status) {
			t.Fatalf("a crash-looping pod was ready at %v", s.at.Sub(t0))
		}
	}
	last := p.Status.ContainerStatuses[0].LastTerminationState.Terminated
	if last == nil || last.ExitCode != 1 || last.Reason != "Error" || last.FinishedAt.IsZero() {
		t.Errorf("lastState.terminated = %+v, want exit code 1, reason Error", last)
	}
	backOffEvents := 0
	for _, e := range h.Events.Lines {
		if strings.HasPrefix(e, "Warning BackOff Back-off restarting failed container a in pod api_default(uid-api)") {
			backOffEvents++
		}
	}
	if backOffEvents != len(got) {
		t.Errorf("%d BackOff warnings for %d back-offs: %q", backOffEvents, len(got), h.Events.Lines)
	}
}

func TestCrashingPodThatNeverRestartsFails(t *testing.T) {
	h := newHarness(t, 1, []ImageRule{{Match: "*", Start: time.Second, CrashLoop: true}}, Options{})
	h.addNode("n1", true)
	p := h.addPod("job", "n1", "task")
	p = h.mustPod(p.Name)
	p.Spec.RestartPolicy = corev1.RestartPolicyNever
	if _, err := h.Client.CoreV1().Pods("default").Update(t.Context(), p, metav1UpdateOptions); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.runFor(time.Minute)
	p = h.mustPod("job")
	if p.Status.Phase != corev1.PodFailed {
		t.Fatalf("phase %s, want Failed", p.Status.Phase)
	}
	if term := p.Status.ContainerStatuses[0].State.Terminated; term == nil || term.ExitCode != 1 || p.Status.ContainerStatuses[0].RestartCount != 0 {
		t.Errorf("container = %+v, want terminated with exit code 1 and no restart", p.Status.ContainerStatuses[0])
	}
}
