package kubelet

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	clienttesting "k8s.io/client-go/testing"
)

func TestDeletedPodIsRemovedAfterStopTimeOrGracePeriod(t *testing.T) {
	cases := []struct {
		name  string
		stop  time.Duration
		grace int64
		want  time.Duration
	}{
		{"stops before the grace period ends", 5 * time.Second, 30, 5 * time.Second},
		{"grace period cuts a slow stop short", 20 * time.Second, 3, 3 * time.Second},
		{"no Stop in the rule means one second", 0, 30, time.Second},
		{"zero grace removes at once", 5 * time.Second, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 1, []ImageRule{{Match: "*", Start: time.Second, Ready: time.Second, Stop: c.stop}}, Options{})
			h.addNode("n1", true)
			h.addPod("p", "n1", "img")
			h.runFor(time.Minute)
			h.Client.ClearActions()

			h.deletePod("p", c.grace)
			h.runFor(0)
			if c.want > 0 {
				p := h.mustPod("p")
				if isReady(&p.Status) || p.Status.ContainerStatuses[0].Ready {
					t.Fatal("a pod being deleted is still ready")
				}
				if r := podCondition(p, corev1.PodReady); !r.LastTransitionTime.Time.Equal(t0.Add(time.Minute)) {
					t.Errorf("Ready went False at %v, want when the deletion was seen", r.LastTransitionTime.Sub(t0))
				}
				h.runFor(c.want - time.Millisecond)
				if h.pod("p") == nil {
					t.Fatalf("removed before %v", c.want)
				}
				h.runFor(time.Millisecond)
			}
			if h.pod("p") != nil {
				t.Fatalf("not removed %v after the delete request", c.want)
			}
			var deletes []clienttesting.DeleteActionImpl
			for _, a := range h.Client.Actions() {
				if d, ok := a.(clienttesting.DeleteActionImpl); ok {
					deletes = append(deletes, d)
				}
			}
			if len(deletes) != 1 {
				t.Fatalf("%d deletes, want 1", len(deletes))
			}
			opts := deletes[0].DeleteOptions
			if opts.GracePeriodSeconds == nil || *opts.GracePeriodSeconds != 0 {
				t.Errorf("delete grace period %v, want 0", opts.GracePeriodSeconds)
			}
			if opts.Preconditions == nil || opts.Preconditions.UID == nil || *opts.Preconditions.UID != "uid-p" {
				t.Errorf("delete preconditions %+v, want the pod's UID", opts.Preconditions)
			}
			if len(h.kubelet.progress) != 0 {
				t.Errorf("the kubelet still remembers a removed pod: %v", h.kubelet.progress)
			}
		})
	}
}
