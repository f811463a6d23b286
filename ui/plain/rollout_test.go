package plain

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/argo"
	"rollscope/model/cluster"
	"rollscope/model/kind"
)

func plainRollout(rv string, phase argo.RolloutPhase, message string) *argo.Rollout {
	four := int32(4)
	return &argo.Rollout{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "checkout", UID: "ro", ResourceVersion: rv, Generation: 1},
		Spec:       argo.RolloutSpec{Replicas: &four, Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{}}},
		Status:     argo.RolloutStatus{ObservedGeneration: "1", Phase: phase, Message: message},
	}
}

// paused waits at its one step, a pause without a duration, since 09:00.
var paused = func() *argo.Rollout {
	r := plainRollout("3", argo.RolloutPhasePaused, "CanaryPauseStep")
	r.Spec.Strategy.Canary.Steps = []argo.CanaryStep{{Pause: &argo.RolloutPause{}}}
	r.Status.CurrentStepIndex, r.Status.ControllerPause = new(int32), true
	r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonCanaryPauseStep,
		StartTime: metav1.Time{Time: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}}}
	return r
}()

func followRollout(batches ...[]runtime.Object) (string, error) {
	var out bytes.Buffer
	p := NewStatus(&out, "checkout", func(at time.Time) string { return at.Format("15:04:05") })
	p.Namespace, p.Kind = "shop", kind.Rollout
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for i, objs := range batches {
		p.Batch(cluster.Batch{At: at.Add(time.Duration(i) * time.Second), Objects: objs, Watch: cluster.WatchStatus{Connected: true, Synced: true}})
	}
	return out.String(), p.Outcome()
}

// --plain rollout/NAME says what `kubectl argo rollouts status` says, each
// line once, and ends as it does: Healthy exits 0.
func TestPlainFollowsARolloutInArgosWords(t *testing.T) {
	out, err := followRollout(
		[]runtime.Object{plainRollout("1", argo.RolloutPhaseProgressing, "more replicas need to be updated")},
		[]runtime.Object{plainRollout("2", argo.RolloutPhaseProgressing, "more replicas need to be updated")},
		[]runtime.Object{paused},
		[]runtime.Object{plainRollout("4", argo.RolloutPhaseHealthy, "")},
	)
	want := "[09:00:00] rollout/checkout Progressing - more replicas need to be updated\n" +
		"[09:00:02] rollout/checkout Paused - CanaryPauseStep\n" +
		"[09:00:02] rollout/checkout why waiting 2s at step 1/1 (pause (until promoted)) — promote to go on\n" +
		"[09:00:03] rollout/checkout Healthy\n"
	if out != want || err != nil {
		t.Errorf("printed\n%s(err %v)\nwant\n%s", out, err, want)
	}
}

// Degraded exits 1 with the plugin's error; a watch stopped first says the
// plugin's timeout; a Rollout that is not there says so as kubectl would.
func TestPlainRolloutOutcomes(t *testing.T) {
	_, err := followRollout([]runtime.Object{plainRollout("1", argo.RolloutPhaseDegraded, "RolloutAborted: Rollout aborted update to revision 2")})
	if err == nil || err.Error() != "The rollout is in a degraded state with message: RolloutAborted: Rollout aborted update to revision 2" {
		t.Errorf("degraded: %v", err)
	}
	if _, err := followRollout([]runtime.Object{plainRollout("1", argo.RolloutPhaseProgressing, "")}); !errors.Is(err, ErrWatchTimeout) {
		t.Errorf("stopped while progressing: %v, want %v", err, ErrWatchTimeout)
	}
	if _, err := followRollout([]runtime.Object{}); err == nil || err.Error() != `rollouts.argoproj.io "checkout" not found` {
		t.Errorf("absent: %v", err)
	}
}

// --plain -A lists a Rollout's row among the fleet's, in Argo's state.
func TestPlainFleetListsRollouts(t *testing.T) {
	var out bytes.Buffer
	p := NewFleet(&out, nil, "", func(at time.Time) string { return at.Format("15:04:05") })
	at := time.Date(2026, 12, 2, 9, 0, 2, 0, time.UTC)
	p.Batch(cluster.Batch{At: at, Objects: []runtime.Object{paused}, Watch: cluster.WatchStatus{Connected: true, Synced: true}})
	if want := "[09:00:02] shop ro/checkout awaiting promotion"; !bytes.HasPrefix(out.Bytes(), []byte(want)) {
		t.Errorf("printed %q, want a line starting %q", out.String(), want)
	}
}

// --timeout ends a Rollout's follow as a Ctrl-C does (the watch ends
// without an error of its own, Outcome says the plugin's timeout); it
// bounds nothing else.
func TestDeadlineBoundsOnlyARollout(t *testing.T) {
	ctx, end, err := Deadline(t.Context(), kind.Rollout, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer end()
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("the timed-out follow ended with %v, want context.Canceled (as Ctrl-C)", ctx.Err())
	}
	ctx, end, err = Deadline(t.Context(), kind.Rollout, 0)
	if err != nil || ctx.Err() != nil {
		t.Errorf("no timeout: %v, %v", err, ctx.Err())
	}
	end()
	for _, k := range []kind.Kind{"", kind.Deployment} {
		if _, _, err := Deadline(t.Context(), k, time.Second); err == nil || !strings.Contains(err.Error(), "--plain rollout/NAME only") {
			t.Errorf("--timeout on %q: %v, want a refusal", k, err)
		}
	}
	if _, _, err := Deadline(t.Context(), kind.Rollout, -time.Second); err == nil {
		t.Errorf("a negative --timeout was accepted")
	}
}

// On the embedded cluster a Rollout is judged only once the scenario's
// actions have run and nothing is under way: Healthy before a scripted
// setImage does not end the run; paused with nothing left to promote it,
// it ends with exit 1 as a paused deployment does.
func TestPlainEmbeddedRolloutWaitsForTheScenario(t *testing.T) {
	var out bytes.Buffer
	p := NewStatus(&out, "checkout", func(at time.Time) string { return at.Format("15:04:05") })
	p.Namespace, p.Kind, p.Embedded, p.Scripted = "shop", kind.Rollout, true, 1
	p.Settled = func() bool { return true }
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	batch := func(r *argo.Rollout) {
		p.Batch(cluster.Batch{At: at, Objects: []runtime.Object{r}, Watch: cluster.WatchStatus{Connected: true, Synced: true}})
	}
	batch(plainRollout("1", argo.RolloutPhaseHealthy, ""))
	if p.ended {
		t.Fatalf("Healthy before the scenario's setImage ended the run:\n%s", out.String())
	}
	p.Action(at, "setImage", "rollout/checkout", "ok")
	bg := plainRollout("2", argo.RolloutPhasePaused, "BlueGreenPause")
	bg.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "checkout"}}
	batch(bg)
	err := p.Outcome()
	if err == nil || err.Error() != `rollout "checkout" is paused (BlueGreenPause) and nothing left in the scenario resumes it` {
		t.Errorf("paused with nothing left: %v\n%s", err, out.String())
	}
}
