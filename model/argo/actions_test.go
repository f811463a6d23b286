package argo_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"rollscope/model/argo"
)

// canary is a canary Rollout of four steps at step index at, updating
// (current pod hash "new", stable "old") unless promoted.
func canary(at int32, change func(r *argo.Rollout)) *argo.Rollout {
	w := int32(20)
	r := &argo.Rollout{}
	r.Name = "checkout"
	r.Spec.Strategy.Canary = &argo.CanaryStrategy{Steps: []argo.CanaryStep{
		{SetWeight: &w}, {Pause: &argo.RolloutPause{}}, {Analysis: &argo.RolloutAnalysis{}}, {SetWeight: &w},
	}}
	r.Status.CurrentStepIndex = &at
	r.Status.CurrentPodHash, r.Status.StableRS = "new", "old"
	if change != nil {
		change(r)
	}
	return r
}

func blueGreen(change func(r *argo.Rollout)) *argo.Rollout {
	r := &argo.Rollout{}
	r.Name = "checkout"
	r.Spec.Strategy.BlueGreen = &argo.BlueGreenStrategy{ActiveService: "active", PreviewService: "preview"}
	r.Status.CurrentPodHash, r.Status.StableRS = "new", "old"
	if change != nil {
		change(r)
	}
	return r
}

var (
	awaitingPromotion = func(r *argo.Rollout) {
		r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonCanaryPauseStep}}
		r.Status.ControllerPause = true
	}
	pausedByHand = func(r *argo.Rollout) { r.Spec.Paused = true }
	aborted      = func(r *argo.Rollout) { r.Status.Abort = true }
	promoted     = func(r *argo.Rollout) { r.Status.StableRS = r.Status.CurrentPodHash }
)

// status and spec are the writes as the plugin sends them: status patches
// with their fallback to the main resource, spec patches on it.
func status(body, instead string) argo.Write {
	return argo.Write{Subresource: "status", Type: types.MergePatchType, Body: []byte(body), Instead: []byte(instead)}
}

func spec(body string) argo.Write { return argo.Write{Type: types.MergePatchType, Body: []byte(body)} }

type writesCase struct {
	name string
	r    *argo.Rollout
	want []argo.Write
	// refused is a word of the refusal; "" when the action is offered.
	refused string
	// noChange marks a refusal because the Rollout already is as asked.
	noChange bool
}

func checkWrites(t *testing.T, what string, act func(*argo.Rollout) ([]argo.Write, error), cases []writesCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := act(tc.r)
		if tc.refused != "" {
			if err == nil || !strings.Contains(err.Error(), tc.refused) || len(got) > 0 {
				t.Errorf("%s %s: %v, %v; want it refused with %q and nothing sent", what, tc.name, writes(got), err, tc.refused)
			} else if errors.Is(err, argo.ErrNoChange) != tc.noChange {
				t.Errorf("%s %s: %v: ErrNoChange is %v, want %v", what, tc.name, err, !tc.noChange, tc.noChange)
			}
			continue
		}
		if err != nil || writes(got) != writes(tc.want) {
			t.Errorf("%s %s:\n got %s, %v\nwant %s", what, tc.name, writes(got), err, writes(tc.want))
		}
	}
}

func writes(ws []argo.Write) string {
	var s []string
	for _, w := range ws {
		line := string(w.Type) + " " + w.Subresource + " " + string(w.Body)
		if w.Instead != nil {
			line += " (NotFound: " + string(w.Instead) + ")"
		}
		s = append(s, line)
	}
	return "[" + strings.Join(s, " | ") + "]"
}

// Promote sends what `kubectl argo rollouts promote` sends in each state
// (getPatches at v1.10), status before spec, and is refused where it
// would do nothing or, on an aborted Rollout, the wrong thing.
func TestPromoteSendsThePluginsPatches(t *testing.T) {
	inconclusive := func(r *argo.Rollout) {
		r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonInconclusiveAnalysis}}
		r.Status.ControllerPause = true
		r.Status.Canary.CurrentStepAnalysisRunStatus = &argo.RolloutAnalysisRunStatus{Status: argo.AnalysisPhaseInconclusive}
	}
	const unified = `{"spec":{"paused":false},"status":{"pauseConditions":null}}`
	checkWrites(t, "promote", argo.Promote, []writesCase{
		{name: "at an indefinite pause step", r: canary(1, awaitingPromotion),
			want: []argo.Write{status(`{"status":{"pauseConditions":null}}`, unified)}},
		{name: "paused by hand at a pause step", r: canary(1, func(r *argo.Rollout) { awaitingPromotion(r); pausedByHand(r) }),
			want: []argo.Write{status(`{"status":{"pauseConditions":null}}`, unified), spec(`{"spec":{"paused":false}}`)}},
		{name: "paused by hand mid-step", r: canary(0, pausedByHand),
			want: []argo.Write{status(`{"status":{"pauseConditions":null, "currentStepIndex":1}}`, `{"spec":{"paused":false},"status":{"pauseConditions":null, "currentStepIndex":1}}`), spec(`{"spec":{"paused":false}}`)}},
		{name: "mid-analysis (skips the step)", r: canary(2, nil),
			want: []argo.Write{status(`{"status":{"pauseConditions":null, "currentStepIndex":3}}`, `{"spec":{"paused":false},"status":{"pauseConditions":null, "currentStepIndex":3}}`)}},
		{name: "inconclusive analysis", r: canary(2, inconclusive),
			want: []argo.Write{status(`{"status":{"pauseConditions":null, "controllerPause":false, "currentStepIndex":3}}`, unified)}},
		{name: "no step index yet", r: canary(0, func(r *argo.Rollout) { r.Status.CurrentStepIndex = nil }),
			want: []argo.Write{status(`{"status":{"pauseConditions":null, "currentStepIndex":1}}`, `{"spec":{"paused":false},"status":{"pauseConditions":null, "currentStepIndex":1}}`)}},
		{name: "past the last step, paused by hand", r: canary(4, pausedByHand),
			want: []argo.Write{status(`{"status":{"pauseConditions":null, "currentStepIndex":4}}`, `{"spec":{"paused":false},"status":{"pauseConditions":null, "currentStepIndex":4}}`), spec(`{"spec":{"paused":false}}`)}},
		{name: "blue/green awaiting promotion", r: blueGreen(func(r *argo.Rollout) {
			r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonBlueGreenPause}}
		}), want: []argo.Write{status(`{"status":{"pauseConditions":null}}`, unified)}},
		{name: "blue/green paused by hand", r: blueGreen(pausedByHand), want: []argo.Write{spec(`{"spec":{"paused":false}}`)}},

		{name: "aborted", r: canary(0, aborted), refused: "is aborted"},
		{name: "aborted at a pause", r: canary(1, func(r *argo.Rollout) { awaitingPromotion(r); aborted(r) }), refused: "retry it"},
		{name: "past the last step", r: canary(4, nil), refused: "every step is done", noChange: true},
		{name: "fully promoted", r: canary(4, promoted), refused: "fully promoted", noChange: true},
		{name: "blue/green not paused", r: blueGreen(nil), refused: "not paused", noChange: true},
	})
}

// promote --full skips what is left, an aborted Rollout's abort included,
// and is refused once there is nothing left.
func TestPromoteFullSendsThePluginsPatches(t *testing.T) {
	const unified = `{"spec":{"paused":false},"status":{"promoteFull":true}}`
	checkWrites(t, "promote --full", argo.PromoteFull, []writesCase{
		{name: "at a pause step", r: canary(1, awaitingPromotion), want: []argo.Write{status(`{"status":{"promoteFull":true}}`, unified)}},
		{name: "paused by hand", r: canary(0, pausedByHand),
			want: []argo.Write{status(`{"status":{"promoteFull":true}}`, unified), spec(`{"spec":{"paused":false}}`)}},
		{name: "aborted", r: canary(0, aborted), want: []argo.Write{status(`{"status":{"promoteFull":true}}`, unified)}},
		{name: "blue/green", r: blueGreen(nil), want: []argo.Write{status(`{"status":{"promoteFull":true}}`, unified)}},

		{name: "fully promoted", r: canary(4, promoted), refused: "already fully promoted", noChange: true},
		{name: "fully promoted, paused by hand", r: canary(4, func(r *argo.Rollout) { promoted(r); pausedByHand(r) }), refused: "resume it", noChange: true},
		{name: "being promoted fully", r: canary(2, func(r *argo.Rollout) { r.Status.PromoteFull = true }), refused: "already being promoted", noChange: true},
	})
}

// Abort and retry are status patches with the plugin's fallback; retry is
// offered only on an aborted Rollout, abort only on an update under way.
func TestAbortAndRetryAreOfferedInTheirStates(t *testing.T) {
	checkWrites(t, "abort", argo.Abort, []writesCase{
		{name: "mid-canary", r: canary(2, nil), want: []argo.Write{status(`{"status":{"abort":true}}`, `{"status":{"abort":true}}`)}},
		{name: "awaiting promotion", r: canary(1, awaitingPromotion), want: []argo.Write{status(`{"status":{"abort":true}}`, `{"status":{"abort":true}}`)}},
		{name: "aborted", r: canary(2, aborted), refused: "already aborted", noChange: true},
		{name: "fully promoted", r: canary(4, promoted), refused: "nothing to abort", noChange: true},
	})
	checkWrites(t, "retry", argo.Retry, []writesCase{
		{name: "aborted", r: canary(0, aborted), want: []argo.Write{status(`{"status":{"abort":false}}`, `{"status":{"abort":false}}`)}},
		{name: "mid-canary", r: canary(2, nil), refused: "not aborted", noChange: true},
		{name: "fully promoted", r: canary(4, promoted), refused: "not aborted", noChange: true},
	})
}

// Pause is offered when not paused; resume only when paused by hand, and
// a Rollout paused by its own step is pointed to promote.
func TestPauseAndResumeAreOfferedInTheirStates(t *testing.T) {
	checkWrites(t, "pause", argo.Pause, []writesCase{
		{name: "mid-canary", r: canary(2, nil), want: []argo.Write{spec(`{"spec":{"paused":true}}`)}},
		{name: "fully promoted", r: canary(4, promoted), want: []argo.Write{spec(`{"spec":{"paused":true}}`)}},
		{name: "paused", r: canary(2, pausedByHand), refused: "already paused", noChange: true},
	})
	checkWrites(t, "resume", argo.Resume, []writesCase{
		{name: "paused by hand", r: canary(2, pausedByHand), want: []argo.Write{spec(`{"spec":{"paused":false}}`)}},
		{name: "at a pause step", r: canary(1, awaitingPromotion), refused: "promote it", noChange: true},
		{name: "running", r: canary(2, nil), refused: "is not paused", noChange: true},
	})
}

// Restart writes the plugin's patch text, its layout included; scale is
// kubectl scale's patch of the scale subresource.
func TestRestartAndScaleWriteThePatchesSent(t *testing.T) {
	at := time.Date(2026, 12, 2, 7, 30, 0, 0, time.FixedZone("CET", 3600))
	want := "{\n\t\"spec\": {\n\t\t\"restartAt\": \"2026-12-02T06:30:00Z\"\n\t}\n}"
	if got := argo.Restart(at); writes(got) != writes([]argo.Write{spec(want)}) {
		t.Errorf("restart: %s", writes(got))
	}
	got, err := argo.Scale(5)
	if err != nil || writes(got) != writes([]argo.Write{{Subresource: "scale", Type: types.MergePatchType, Body: []byte(`{"spec":{"replicas":5}}`)}}) {
		t.Errorf("scale: %s, %v", writes(got), err)
	}
	if got, err := argo.Scale(-1); err == nil || len(got) > 0 {
		t.Errorf("scale to -1: %s, %v; want it refused", writes(got), err)
	}
}
