package kind_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

func int32p(n int32) *int32 { return &n }

// rolloutAt is a 3-replica canary Rollout at generation 2, observed.
func rolloutAt(edit func(*argo.Rollout)) *argo.Rollout {
	labels := map[string]string{"app": "checkout"}
	r := &argo.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "checkout", Generation: 2},
		Spec: argo.RolloutSpec{
			Replicas: int32p(3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "shop/checkout:v2"}}}},
			Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{Steps: []argo.CanaryStep{{SetWeight: int32p(20)}, {Pause: &argo.RolloutPause{}}}}},
		},
		Status: argo.RolloutStatus{ObservedGeneration: "2", Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
			StableRS: "7f9", CurrentPodHash: "7f9"},
	}
	if edit != nil {
		edit(r)
	}
	return r
}

// The status words are Argo's: rolloututil.GetRolloutPhase as the
// `kubectl argo rollouts status` plugin reads it, its lines and its error.
func TestRolloutStatusSaysWhatArgosPluginSays(t *testing.T) {
	cond := func(typ argo.RolloutConditionType, reason, msg string) func(*argo.Rollout) {
		return func(r *argo.Rollout) {
			r.Status.Conditions = append(r.Status.Conditions, argo.RolloutCondition{Type: typ, Reason: reason, Message: msg})
		}
	}
	for _, c := range []struct {
		name string
		edit func(*argo.Rollout)
		line string
		done bool
		err  string
	}{
		{"healthy", nil, "Healthy\n", true, ""},
		{"not observed", func(r *argo.Rollout) { r.Status.ObservedGeneration = "1" }, "Progressing - waiting for rollout spec update to be observed\n", false, ""},
		// A controller before v0.10 wrote a hash: observed.
		{"hash generation", func(r *argo.Rollout) { r.Status.ObservedGeneration = "5b7f9" }, "Healthy\n", true, ""},
		{"unpausing", func(r *argo.Rollout) { r.Status.ControllerPause = true }, "Progressing - waiting for rollout to unpause\n", false, ""},
		// From v1.0 the controller writes the phase; the plugin shows it.
		{"controller's phase", func(r *argo.Rollout) {
			r.Status.Phase, r.Status.Message = argo.RolloutPhasePaused, "CanaryPauseStep"
			r.Status.ControllerPause = true
			r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonCanaryPauseStep}}
		}, "Paused - CanaryPauseStep\n", false, ""},
		{"controller's degraded", func(r *argo.Rollout) {
			r.Status.Phase, r.Status.Message = argo.RolloutPhaseDegraded, "RolloutAborted: Rollout aborted update to revision 3"
		}, "Degraded - RolloutAborted: Rollout aborted update to revision 3\n", false,
			"The rollout is in a degraded state with message: RolloutAborted: Rollout aborted update to revision 3"},
		// Without a phase (a controller before v1.0) the plugin works it out.
		{"invalid spec", cond(argo.InvalidSpec, "InvalidSpec", "The Rollout \"checkout\" is invalid"), "Degraded - InvalidSpec: The Rollout \"checkout\" is invalid\n", false,
			"The rollout is in a degraded state with message: InvalidSpec: The Rollout \"checkout\" is invalid"},
		{"deadline", cond(argo.RolloutProgressing, "ProgressDeadlineExceeded", "ReplicaSet \"checkout-7f9\" has timed out progressing."),
			"Degraded - ProgressDeadlineExceeded: ReplicaSet \"checkout-7f9\" has timed out progressing.\n", false,
			"The rollout is in a degraded state with message: ProgressDeadlineExceeded: ReplicaSet \"checkout-7f9\" has timed out progressing."},
		{"manually paused", func(r *argo.Rollout) { r.Spec.Paused = true }, "Paused - manually paused\n", false, ""},
		{"pause step", func(r *argo.Rollout) {
			r.Status.ControllerPause = true
			r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonCanaryPauseStep}}
		}, "Paused - CanaryPauseStep\n", false, ""},
		{"restarting", func(r *argo.Rollout) { r.Spec.RestartAt = &metav1.Time{Time: time.Unix(100, 0)} }, "Progressing - rollout is restarting\n", false, ""},
		{"updating", func(r *argo.Rollout) { r.Status.UpdatedReplicas = 1 }, "Progressing - more replicas need to be updated\n", false, ""},
		{"becoming available", func(r *argo.Rollout) { r.Status.AvailableReplicas = 2 }, "Progressing - updated replicas are still becoming available\n", false, ""},
		{"old pods", func(r *argo.Rollout) { r.Status.Replicas = 4 }, "Progressing - old replicas are pending termination\n", false, ""},
		{"steps", func(r *argo.Rollout) { r.Status.CurrentPodHash = "8c1" }, "Progressing - waiting for all steps to complete\n", false, ""},
		{"cutover", func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "active"}}
			r.Status.BlueGreen.ActiveSelector = "5b7"
		}, "Progressing - active service cutover pending\n", false, ""},
		{"post-promotion analysis", func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "active", PostPromotionAnalysis: &argo.RolloutAnalysis{}}}
			r.Status.BlueGreen.ActiveSelector, r.Status.CurrentPodHash = "8c1", "8c1"
			r.Status.BlueGreen.PostPromotionAnalysisRunStatus = &argo.RolloutAnalysisRunStatus{Status: argo.AnalysisPhaseRunning}
		}, "Progressing - waiting for analysis to complete\n", false, ""},
		{"blue/green healthy", func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "active"}}
			r.Status.BlueGreen.ActiveSelector = "7f9"
		}, "Healthy\n", true, ""},
	} {
		w, _ := kind.Of(rolloutAt(c.edit))
		line, done, err := w.RolloutStatus()
		if line != c.line || done != c.done || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("%s: %q, done %v, err %v; want %q, %v, %q", c.name, line, done, err, c.line, c.done, c.err)
		}
		if settled := w.Settled(); settled != c.done {
			t.Errorf("%s: settled %v, want %v", c.name, settled, c.done)
		}
	}
}

func TestRolloutReadsAsAWorkload(t *testing.T) {
	r := rolloutAt(func(r *argo.Rollout) { r.Status.CurrentPodHash, r.Status.CurrentStepIndex = "8c1", int32p(1) })
	w, ok := kind.Of(r)
	if !ok || w.Kind() != kind.Rollout || w.Object() != r {
		t.Fatalf("Of(*argo.Rollout) = %v, %v", w, ok)
	}
	if n, scaled := w.Replicas(); n != 3 || !scaled {
		t.Errorf("replicas %d, %v", n, scaled)
	}
	if cur, upd := w.Revisions(); cur != "7f9" || upd != "8c1" {
		t.Errorf("revisions %s → %s; want the stable hash, then the current pod hash", cur, upd)
	}
	if l := w.TraceLine(); l.Note != "step 2/2" || l.Desired() != 3 {
		t.Errorf("trace line %+v", l)
	}
	before := w.Figures()
	r.Status.CurrentStepIndex = int32p(2)
	if w.Figures() == before {
		t.Error("a step taken does not move the figures")
	}
	cp := w.Copy(metav1.ObjectMeta{Name: "copy", Generation: 1})
	kind.TakeStatus(cp, w)
	if got := cp.Object().(*argo.Rollout).Status; got.ObservedGeneration != "1" || got.StableRS != "7f9" {
		t.Errorf("copy's status %+v; want the original's, observed at its own generation", got)
	}
	var nilRollout *argo.Rollout
	if _, ok := kind.Of(nilRollout); ok {
		t.Error("a nil Rollout is a workload")
	}
	e, _ := kind.Rollout.Entry()
	if e.Custom == "" || e.Resource() != argo.Rollouts {
		t.Errorf("entry %+v", e)
	}
	for _, b := range kind.Builtin() {
		if b.Kind == kind.Rollout {
			t.Error("Builtin lists Rollouts, which the embedded cluster does not run")
		}
	}
}

// What Argo's controller would mark InvalidSpec is found before a Rollout
// is sent, naming the field.
func TestRolloutCheckFindsWhatArgoCallsInvalidSpec(t *testing.T) {
	zero := intstr.FromInt32(0)
	steps := func(s ...argo.CanaryStep) func(*argo.Rollout) {
		return func(r *argo.Rollout) { r.Spec.Strategy.Canary.Steps = s }
	}
	for _, c := range []struct {
		name       string
		edit       func(*argo.Rollout)
		path, says string
	}{
		{"ok", nil, "", ""},
		{"workloadRef without a template", func(r *argo.Rollout) {
			r.Spec.WorkloadRef, r.Spec.Template, r.Spec.Selector = &argo.ObjectRef{Kind: "Deployment", Name: "checkout"}, corev1.PodTemplateSpec{}, nil
		}, "", ""},
		{"workloadRef and a template", func(r *argo.Rollout) { r.Spec.WorkloadRef = &argo.ObjectRef{Kind: "Deployment", Name: "checkout"} },
			"spec.template", "both a workloadRef and a template"},
		{"no strategy", func(r *argo.Rollout) { r.Spec.Strategy = argo.RolloutStrategy{} }, "spec.strategy", "has no strategy"},
		{"both strategies", func(r *argo.Rollout) { r.Spec.Strategy.BlueGreen = &argo.BlueGreenStrategy{ActiveService: "a"} },
			"spec.strategy", "both a canary and a blueGreen"},
		{"unknown strategy field", func(r *argo.Rollout) {
			r.Spec.Strategy.Unknown = map[string]json.RawMessage{"rollingUpdate": json.RawMessage(`{}`)}
		}, "spec.strategy.rollingUpdate", `strategy field "rollingUpdate", which Argo Rollouts does not know`},
		{"two actions in a step", steps(argo.CanaryStep{SetWeight: int32p(20), Pause: &argo.RolloutPause{}}), "spec.strategy.canary.steps[0]", "more than one action"},
		{"an empty step", steps(argo.CanaryStep{}), "spec.strategy.canary.steps[0]", "does nothing"},
		{"weight over 100", steps(argo.CanaryStep{SetWeight: int32p(120)}), "spec.strategy.canary.steps[0].setWeight", "use 0 to 100"},
		{"bad pause", steps(argo.CanaryStep{Pause: &argo.RolloutPause{Duration: &intstr.IntOrString{Type: intstr.String, StrVal: "ten minutes"}}}),
			"spec.strategy.canary.steps[0].pause.duration", "no duration"},
		{"canary scale without a router", steps(argo.CanaryStep{SetCanaryScale: &argo.SetCanaryScale{Replicas: int32p(1)}}),
			"spec.strategy.canary.trafficRouting", "setCanaryScale only with a traffic router"},
		{"frozen", func(r *argo.Rollout) {
			r.Spec.Strategy.Canary.MaxSurge, r.Spec.Strategy.Canary.MaxUnavailable = &zero, &zero
		},
			"spec.strategy.canary.maxSurge", "both 0"},
		{"one service for both", func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "web", PreviewService: "web"}}
		}, "spec.strategy.blueGreen.activeService", "both active and preview"},
		{"deadline", func(r *argo.Rollout) { r.Spec.MinReadySeconds = 700 }, "spec.progressDeadlineSeconds", "must be more than minReadySeconds"},
	} {
		w, _ := kind.Of(rolloutAt(c.edit))
		p := w.Check()
		switch {
		case c.path == "" && p != nil:
			t.Errorf("%s: refused a valid Rollout: %s", c.name, p.Msg)
		case c.path != "" && p == nil:
			t.Errorf("%s: passed; want a problem at %s", c.name, c.path)
		case c.path != "" && (p.Path != c.path || !strings.Contains(p.Msg, c.says)):
			t.Errorf("%s: %s: %q; want %s: …%s…", c.name, p.Path, p.Msg, c.path, c.says)
		}
	}
}
