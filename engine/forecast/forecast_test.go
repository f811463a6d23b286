package forecast

import (
	"strings"
	"testing"
	"time"
)

func TestRolloutArithmetic(t *testing.T) {
	cases := []struct {
		name string
		in   Input
		want Forecast
	}{
		{"one at a time", Input{Replicas: 3, MaxSurge: 1, Old: []Set{{3, 3}}, PodReady: 10 * time.Second},
			Forecast{Steps: 6, Waves: 3, PeakPods: 4, LowestAvailable: 3, Duration: 30 * time.Second}},
		{"already done", Input{Replicas: 3, MaxSurge: 1, New: 3, NewAvailable: 3},
			Forecast{PeakPods: 3, LowestAvailable: 3}},
		// Unavailable old pods go first and cost nothing.
		{"crash-looping old pods", Input{Replicas: 4, MaxUnavailable: 1, Old: []Set{{4, 2}}},
			Forecast{Steps: 8, Waves: 4, PeakPods: 4, LowestAvailable: 2}},
		{"mid-rollout, new pods half up", Input{Replicas: 4, MaxSurge: 2, New: 2, NewAvailable: 2, Old: []Set{{2, 2}}},
			Forecast{Steps: 2, Waves: 1, PeakPods: 6, LowestAvailable: 4}},
		{"two old ReplicaSets, oldest first", Input{Replicas: 4, MaxSurge: 0, MaxUnavailable: 4, Old: []Set{{1, 1}, {3, 3}}},
			Forecast{Steps: 3, Waves: 1, PeakPods: 4, LowestAvailable: 0}},
		{"recreate", Input{Recreate: true, Replicas: 5, Old: []Set{{5, 5}}, PodReady: time.Minute},
			Forecast{Steps: 2, Waves: 1, PeakPods: 5, LowestAvailable: 0, Duration: time.Minute}},
		{"scale down only", Input{Replicas: 2, MaxSurge: 1, New: 4, NewAvailable: 4},
			Forecast{Steps: 1, PeakPods: 4, LowestAvailable: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rollout(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestForecastSentence(t *testing.T) {
	f := Forecast{Steps: 4, Waves: 2, PeakPods: 11, LowestAvailable: 10, Duration: 22*time.Second + 400*time.Millisecond}
	if s := f.String(); s != "4 scaling steps, new pods ready in 2 waves, at most 11 pods, never fewer than 10 available, about 22s" {
		t.Fatalf("%q", s)
	}
	f.Duration, f.Steps, f.Waves, f.Outcome = 0, 0, 0, Finished
	if s := f.String(); !strings.HasSuffix(s, ", nothing to roll") {
		t.Fatalf("%q", s)
	}
	// An abort that only scales the new pods away waits for no pod: no
	// "in 0 waves", and one step is one step.
	f = Forecast{Steps: 1, PeakPods: 11, LowestAvailable: 10, Duration: time.Second, Outcome: Finished}
	if s := f.String(); s != "1 scaling step, no new pod to wait for, at most 11 pods, never fewer than 10 available, about 1s" {
		t.Fatalf("%q", s)
	}
	f.Steps, f.Waves = 2, 1
	if s := f.String(); !strings.HasPrefix(s, "2 scaling steps, new pods ready in 1 wave, ") {
		t.Fatalf("%q", s)
	}
}
