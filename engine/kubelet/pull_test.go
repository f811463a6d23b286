package kubelet

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

func TestPullErrorBacksOffAndThePodNeverStarts(t *testing.T) {
	h := newHarness(t, 1, []ImageRule{{Match: "*:missing", Pull: time.Second, PullError: true}}, Options{})
	h.addNode("n1", true)
	h.addPod("web", "n1", "nginx:missing")
	h.runFor(20 * time.Minute)

	var failures, backOffs []time.Duration
	prev := ""
	for _, s := range h.history["web"] {
		if s.status.StartTime == nil {
			continue // created, not yet seen by the kubelet
		}
		if s.status.Phase != corev1.PodPending {
			t.Fatalf("phase %s at %v: a pod whose image cannot be pulled stays Pending", s.status.Phase, s.at.Sub(t0))
		}
		w := s.status.ContainerStatuses[0].State.Waiting
		if w == nil {
			t.Fatalf("container not waiting at %v: %+v", s.at.Sub(t0), s.status.ContainerStatuses[0].State)
		}
		switch {
		case w.Reason == prev:
		case w.Reason == "ErrImagePull":
			failures = append(failures, s.at.Sub(t0))
			want := `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:missing": failed to resolve reference "docker.io/library/nginx:missing": docker.io/library/nginx:missing: not found`
			if w.Message != want {
				t.Errorf("ErrImagePull message %q, want %q", w.Message, want)
			}
		case w.Reason == "ImagePullBackOff":
			backOffs = append(backOffs, s.at.Sub(t0))
			if w.Message != `Back-off pulling image "nginx:missing"` {
				t.Errorf("ImagePullBackOff message %q", w.Message)
			}
		}
		prev = w.Reason
	}
	// Each retry waits out the back-off (10s doubling to 5m), then pulls for 1s.
	waits := []time.Duration{10, 20, 40, 80, 160, 300, 300}
	want := []time.Duration{time.Second}
	for i, w := range waits {
		want = append(want, want[i]+w*time.Second+time.Second)
	}
	if len(failures) < len(want) {
		t.Fatalf("failed pulls at %v, want at least %v", failures, want)
	}
	for i := range want {
		if failures[i] != want[i] {
			t.Errorf("failed pull %d at %v, want %v", i+1, failures[i], want[i])
		}
		if backOffs[i] != want[i]+pullErrorShown {
			t.Errorf("ImagePullBackOff %d at %v, want %v", i+1, backOffs[i], want[i]+pullErrorShown)
		}
	}
	wantEvent := `Warning Failed Failed to pull image "nginx:missing": rpc error: code = NotFound`
	n := 0
	for _, e := range h.Events.Lines {
		if strings.HasPrefix(e, wantEvent) {
			n++
		}
		if !strings.HasPrefix(e, "Warning ") {
			t.Errorf("a Normal event was recorded: %q", e)
		}
	}
	if n != len(failures) {
		t.Errorf("%d %q events for %d failed pulls", n, wantEvent, len(failures))
	}
}
