package embedded_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"rollscope/engine/embedded"
	"rollscope/engine/play"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// With ExitStatus, a run ends as `kubectl rollout status` would: nil when
// every rollout finished, kubectl's error for one that exceeded its
// progress deadline, its waiting sentence for one the run stopped before.
func TestRunWithExitStatusAnswersAsKubectlRolloutStatus(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		until    time.Duration
		want     string // "" for a finished run
	}{
		{"frontend", 0, ""},
		{"crashloop", 0, `deployment "frontend" exceeded its progress deadline`},
		{"crashloop", 40 * time.Second, `not finished when the run stopped: Waiting for deployment "frontend" rollout to finish`},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			sc := load(t, tc.scenario)
			clock := sim.NewClock(epoch)
			cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed}), clock, sc, embedded.Options{ExitStatus: true})
			if err != nil {
				t.Fatal(err)
			}
			_, err = cl.Run(context.Background(), tc.until)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("a finished run: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !play.IsNotRolledOut(err)):
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
