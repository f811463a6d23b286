package kind

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"rollscope/model/argo"
	"rollscope/model/manifest"
)

// An Argo Rollout as the registry reads it: ReplicaSets like a
// Deployment's, but stepped by Argo's controller (canary steps or a
// blue/green cutover), its status words Argo's own (Healthy, Progressing,
// Paused, Degraded).
//
// A Rollout with a workloadRef runs the referenced Deployment's template,
// which Argo's controller resolves and never writes back: the Rollout's own
// template is empty. The accessor reads the Rollout alone, so for such a
// Rollout Template is that empty template (no containers, no images) and
// Check skips the pod template; the read model, which holds the Deployment,
// names it instead.
type rollout struct{ *argo.Rollout }

func (rollout) Kind() Kind                          { return Rollout }
func (w rollout) Template() *corev1.PodTemplateSpec { return &w.Spec.Template }
func (w rollout) Selector() *metav1.LabelSelector   { return w.Spec.Selector }
func (w rollout) Replicas() (int32, bool)           { return specReplicas(w.Spec.Replicas) }
func (w rollout) MinReadySeconds() int32            { return w.Spec.MinReadySeconds }
func (w rollout) OnDelete() bool                    { return false }
func (w rollout) Object() any                       { return w.Rollout }

// Surge is a canary's maxSurge, or a blue/green Rollout's preview set,
// brought up whole beside the active one (previewReplicaCount, or every
// replica).
func (w rollout) Surge() int32 {
	if bg := w.Spec.Strategy.BlueGreen; bg != nil {
		if bg.PreviewReplicaCount != nil {
			return *bg.PreviewReplicaCount
		}
		r, _ := w.Replicas()
		return r
	}
	return argo.MaxSurge(w.Rollout)
}

func (w rollout) At(size int32) Workload {
	r := *w.Rollout
	r.Spec.Replicas = &size
	return rollout{&r}
}

// Revisions are the stable ReplicaSet's pod-template hash and the one the
// Rollout is rolling to: equal once it is fully promoted.
func (w rollout) Revisions() (current, update string) {
	return w.Status.StableRS, w.Status.CurrentPodHash
}

// RolloutStatus is `kubectl argo rollouts status --watch` for one look: the
// line it prints ("Progressing - more replicas need to be updated",
// "Healthy"), done once Healthy, and the plugin's error once Degraded.
func (w rollout) RolloutStatus() (string, bool, error) {
	phase, msg := RolloutPhase(w.Rollout)
	line := string(phase)
	if msg != "" {
		line += " - " + msg
	}
	switch phase {
	case argo.RolloutPhaseHealthy:
		return line + "\n", true, nil
	case argo.RolloutPhaseDegraded:
		return line + "\n", false, fmt.Errorf("The rollout is in a degraded state with message: %s", msg)
	}
	return line + "\n", false, nil
}

// RolloutPhase is the phase and message `kubectl argo rollouts` shows for
// r: Argo's rolloututil.GetRolloutPhase as the plugin calls it (on a
// Rollout read from the API, whose template is never resolved from its
// workloadRef, so that branch of Argo's never applies).
func RolloutPhase(r *argo.Rollout) (argo.RolloutPhase, string) {
	if !rolloutGenerationObserved(r) {
		return argo.RolloutPhaseProgressing, "waiting for rollout spec update to be observed"
	}
	if r.Status.ControllerPause && len(r.Status.PauseConditions) == 0 {
		return argo.RolloutPhaseProgressing, "waiting for rollout to unpause"
	}
	if r.Status.Phase != "" {
		return r.Status.Phase, r.Status.Message
	}
	return calculateRolloutPhase(r)
}

// rolloutGenerationObserved is Argo's isGenerationObserved: a status
// observedGeneration that is not a number (Argo before v0.10 wrote a hash)
// counts as observed.
func rolloutGenerationObserved(r *argo.Rollout) bool {
	observed, err := strconv.Atoi(r.Status.ObservedGeneration)
	if err != nil {
		return true
	}
	return int64(observed) >= r.Generation
}

// CalculateRolloutPhase is the phase and message Argo's controller writes
// into a status it has built (utils/rollout.CalculateRolloutPhase): from
// the conditions, pauses and counts alone, not from the status's phase.
func CalculateRolloutPhase(r *argo.Rollout) (argo.RolloutPhase, string) {
	return calculateRolloutPhase(r)
}

// calculateRolloutPhase is Argo's CalculateRolloutPhase, which the plugin
// falls back to for a status without a phase (a controller before v1.0).
func calculateRolloutPhase(r *argo.Rollout) (argo.RolloutPhase, string) {
	st := r.Status
	for _, c := range st.Conditions {
		if c.Type == argo.InvalidSpec {
			return argo.RolloutPhaseDegraded, fmt.Sprintf("%s: %s", argo.InvalidSpec, c.Message)
		}
		switch c.Reason {
		case "RolloutAborted", "ProgressDeadlineExceeded":
			return argo.RolloutPhaseDegraded, fmt.Sprintf("%s: %s", c.Reason, c.Message)
		}
	}
	if r.Spec.Paused {
		return argo.RolloutPhasePaused, "manually paused"
	}
	if len(st.PauseConditions) > 0 {
		return argo.RolloutPhasePaused, string(st.PauseConditions[0].Reason)
	}
	if r.Spec.RestartAt != nil && (st.RestartedAt == nil || !r.Spec.RestartAt.Time.Equal(st.RestartedAt.Time)) {
		return argo.RolloutPhaseProgressing, "rollout is restarting"
	}
	want, _ := specReplicas(r.Spec.Replicas)
	if st.UpdatedReplicas < want {
		return argo.RolloutPhaseProgressing, "more replicas need to be updated"
	}
	if st.AvailableReplicas < st.UpdatedReplicas {
		return argo.RolloutPhaseProgressing, "updated replicas are still becoming available"
	}
	promoted := st.StableRS != "" && st.StableRS == st.CurrentPodHash
	if bg := r.Spec.Strategy.BlueGreen; bg != nil {
		if st.BlueGreen.ActiveSelector == "" || st.BlueGreen.ActiveSelector != st.CurrentPodHash {
			return argo.RolloutPhaseProgressing, "active service cutover pending"
		}
		if !promoted {
			if bg.PostPromotionAnalysis != nil && (st.BlueGreen.PostPromotionAnalysisRunStatus == nil || !st.BlueGreen.PostPromotionAnalysisRunStatus.Status.Completed()) {
				return argo.RolloutPhaseProgressing, "waiting for analysis to complete"
			}
			return argo.RolloutPhaseProgressing, "waiting for post-promotion verification to complete"
		}
	} else if c := r.Spec.Strategy.Canary; c != nil {
		if len(c.TrafficRouting) == 0 && st.Replicas > st.UpdatedReplicas {
			return argo.RolloutPhaseProgressing, "old replicas are pending termination"
		}
		if !promoted {
			return argo.RolloutPhaseProgressing, "waiting for all steps to complete"
		}
	}
	return argo.RolloutPhaseHealthy, ""
}

// Settled is Healthy with every pod the Rollout wants available.
func (w rollout) Settled() bool {
	phase, _ := RolloutPhase(w.Rollout)
	want, _ := w.Replicas()
	st := w.Status
	return phase == argo.RolloutPhaseHealthy && st.AvailableReplicas >= want && st.Replicas == want
}

// Figures move with the generation observed, the step, the pause and the
// pod counts.
func (w rollout) Figures() [4]int64 {
	st := w.Status
	observed, _ := strconv.ParseInt(st.ObservedGeneration, 10, 32)
	step := int64(-1)
	if st.CurrentStepIndex != nil {
		step = int64(*st.CurrentStepIndex)
	}
	return [4]int64{w.Generation<<32 | observed, int64(st.Replicas)<<32 | step&0xffffffff,
		int64(st.UpdatedReplicas)<<32 | int64(st.ReadyReplicas), int64(st.AvailableReplicas)<<32 | int64(len(st.PauseConditions))}
}

// TraceLine is what `kubectl get rollouts` shows (desired, current,
// up-to-date, available) with ready, and the step and hashes a rollout turns
// on.
func (w rollout) TraceLine() TraceLine {
	want, _ := w.Replicas()
	st := w.Status
	step := int32(-1)
	if st.CurrentStepIndex != nil {
		step = *st.CurrentStepIndex
	}
	phase, msg := RolloutPhase(w.Rollout)
	l := TraceLine{
		Counts: [5]int32{want, st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.UpdatedReplicas}, Counted: 5,
		Fields: traceFields(countField("spec", want), countField("replicas", st.Replicas), countField("ready", st.ReadyReplicas),
			countField("available", st.AvailableReplicas), countField("updated", st.UpdatedReplicas), countField("step", step),
			textField("stableRS", st.StableRS), textField("currentPodHash", st.CurrentPodHash), textField("phase", string(phase)),
			textField("message", msg)),
	}
	if c := w.Spec.Strategy.Canary; c != nil && st.CurrentStepIndex != nil && int(step) < len(c.Steps) {
		l.Note = fmt.Sprintf("step %d/%d", step+1, len(c.Steps))
	}
	if phase != argo.RolloutPhaseHealthy && phase != argo.RolloutPhaseProgressing {
		l.Note = strings.TrimSpace(string(phase) + " " + l.Note)
	}
	return l
}

// Copy is a Rollout with meta m and the spec, as a rehearsal copies it
// for the embedded Argo controller to run.
func (w rollout) Copy(m metav1.ObjectMeta) Workload {
	return rollout{&argo.Rollout{TypeMeta: w.TypeMeta, ObjectMeta: m, Spec: w.DeepCopy().Spec}}
}

// Check rejects what Argo's controller marks InvalidSpec (its
// ValidateRolloutSpec) as far as the Rollout alone tells — the
// referenced Deployment, the services and the analysis templates are not
// read — and a strategy field Argo has not got.
func (w rollout) Check() *manifest.Problem {
	o := w.Rollout
	what := fmt.Sprintf("Rollout %q", o.Name)
	s := &o.Spec
	if p := manifest.First(
		manifest.Meta(&o.ObjectMeta, "Rollout", validation.IsDNS1123Subdomain),
		manifest.Replicas(s.Replicas, what),
	); p != nil {
		return p
	}
	if s.WorkloadRef == nil {
		if p := manifest.First(
			manifest.Selector(s.Selector, s.Template.Labels, what),
			manifest.PodSpec(&s.Template.Spec, "spec.template.spec", what),
		); p != nil {
			return p
		}
	} else if len(s.Template.Spec.Containers) > 0 || len(s.Template.Labels) > 0 {
		return manifest.Problemf("spec.template", "%s has both a workloadRef and a template (remove the template: the %s %q's is used)", what, s.WorkloadRef.Kind, s.WorkloadRef.Name)
	}
	if p := manifest.First(
		manifest.NonNegative(s.MinReadySeconds, "spec.minReadySeconds", what),
		manifest.OptionalNonNegative(s.RevisionHistoryLimit, "spec.revisionHistoryLimit", what),
		manifest.OptionalNonNegative(s.ProgressDeadlineSeconds, "spec.progressDeadlineSeconds", what),
	); p != nil {
		return p
	}
	deadline := int32(600)
	if s.ProgressDeadlineSeconds != nil {
		deadline = *s.ProgressDeadlineSeconds
	}
	if deadline <= s.MinReadySeconds {
		return manifest.Problemf("spec.progressDeadlineSeconds", "%s has progressDeadlineSeconds %d, which must be more than minReadySeconds %d", what, deadline, s.MinReadySeconds)
	}
	return checkRolloutStrategy(&s.Strategy, what)
}

func checkRolloutStrategy(s *argo.RolloutStrategy, what string) *manifest.Problem {
	if unknown := s.UnknownFields(); len(unknown) > 0 {
		return manifest.Problemf("spec.strategy."+unknown[0], "%s has strategy field %q, which Argo Rollouts does not know (use canary or blueGreen)", what, unknown[0])
	}
	switch {
	case s.Canary == nil && s.BlueGreen == nil:
		return manifest.Problemf("spec.strategy", "%s has no strategy (add spec.strategy.canary or spec.strategy.blueGreen)", what)
	case s.Canary != nil && s.BlueGreen != nil:
		return manifest.Problemf("spec.strategy", "%s has both a canary and a blueGreen strategy (Argo Rollouts takes one)", what)
	case s.BlueGreen != nil:
		bg := s.BlueGreen
		if bg.ActiveService == bg.PreviewService {
			return manifest.Problemf("spec.strategy.blueGreen.activeService", "%s uses service %q as both active and preview (blue/green needs two services)", what, bg.ActiveService)
		}
		return nil
	}
	return checkCanary(s.Canary, what)
}

func checkCanary(c *argo.CanaryStrategy, what string) *manifest.Problem {
	const at = "spec.strategy.canary"
	if c.MaxSurge != nil && c.MaxUnavailable != nil && manifest.IsZero(c.MaxSurge) && manifest.IsZero(c.MaxUnavailable) {
		return manifest.Problemf(at+".maxSurge", "%s has maxSurge and maxUnavailable both 0 (the canary could never progress: allow one of them)", what)
	}
	if c.CanaryService != "" && c.CanaryService == c.StableService {
		return manifest.Problemf(at+".stableService", "%s uses service %q as both stable and canary (a canary needs two services)", what, c.StableService)
	}
	routed := len(c.TrafficRouting) > 0
	if !routed && c.ScaleDownDelaySeconds != nil {
		return manifest.Problemf(at+".scaleDownDelaySeconds", "%s sets canary scaleDownDelaySeconds without trafficRouting (Argo allows it only with a traffic router)", what)
	}
	if !routed && c.DynamicStableScale {
		return manifest.Problemf(at+".dynamicStableScale", "%s sets dynamicStableScale without trafficRouting (Argo allows it only with a traffic router)", what)
	}
	maxWeight := maxTrafficWeight(c)
	for i, st := range c.Steps {
		path := fmt.Sprintf("%s.steps[%d]", at, i)
		switch n := stepActions(st); {
		case n == 0:
			return manifest.Problemf(path, "%s step %d does nothing (give it one of setWeight, pause, analysis, setCanaryScale, experiment or plugin)", what, i+1)
		case n > 1 && multipleStepTypes(st):
			return manifest.Problemf(path, "%s step %d has more than one action (split setWeight, pause, analysis and experiment into steps of their own)", what, i+1)
		}
		if st.SetWeight != nil && (*st.SetWeight < 0 || *st.SetWeight > maxWeight) {
			return manifest.Problemf(path+".setWeight", "%s step %d has setWeight %d (use 0 to %d)", what, i+1, *st.SetWeight, maxWeight)
		}
		if st.Pause != nil && PauseSeconds(st.Pause) < 0 {
			return manifest.Problemf(path+".pause.duration", "%s step %d pauses for %q, which is no duration (write seconds, or 30s, 10m, 1h)", what, i+1, st.Pause.Duration.String())
		}
		if !routed && st.SetCanaryScale != nil {
			return manifest.Problemf(at+".trafficRouting", "%s step %d sets the canary's scale without trafficRouting (Argo allows setCanaryScale only with a traffic router)", what, i+1)
		}
		if !routed && (len(st.SetHeaderRoute) > 0 || len(st.SetMirrorRoute) > 0) {
			return manifest.Problemf(path, "%s step %d sets a header or mirror route without trafficRouting (Argo needs a traffic router for it)", what, i+1)
		}
	}
	return nil
}

// stepActions counts what a step sets.
func stepActions(s argo.CanaryStep) int {
	n := 0
	for _, set := range []bool{s.SetWeight != nil, s.Pause != nil, s.Analysis != nil, s.SetCanaryScale != nil,
		len(s.Experiment) > 0, len(s.SetHeaderRoute) > 0, len(s.SetMirrorRoute) > 0, len(s.Plugin) > 0} {
		if set {
			n++
		}
	}
	return n
}

// multipleStepTypes is Argo's hasMultipleStepsType: of setWeight, pause,
// experiment and analysis, a step takes one.
func multipleStepTypes(s argo.CanaryStep) bool {
	n := 0
	for _, set := range []bool{s.SetWeight != nil, s.Pause != nil, len(s.Experiment) > 0, s.Analysis != nil} {
		if set {
			n++
		}
	}
	return n > 1
}

// maxTrafficWeight is Argo's weightutil.MaxTrafficWeight: 100 unless the
// traffic router sets maxTrafficWeight.
func maxTrafficWeight(c *argo.CanaryStrategy) int32 {
	var router struct {
		MaxTrafficWeight *int32 `json:"maxTrafficWeight"`
	}
	if len(c.TrafficRouting) > 0 && json.Unmarshal(c.TrafficRouting, &router) == nil && router.MaxTrafficWeight != nil {
		return *router.MaxTrafficWeight
	}
	return 100
}

// PauseSeconds is Argo's RolloutPause.DurationSeconds: 0 for a pause
// without a duration (it waits for a promote), -1 for one Argo cannot read.
func PauseSeconds(p *argo.RolloutPause) int32 {
	if p == nil || p.Duration == nil {
		return 0
	}
	if p.Duration.Type != intstr.String {
		return p.Duration.IntVal
	}
	if n, err := strconv.ParseInt(p.Duration.StrVal, 10, 32); err == nil {
		return int32(n)
	}
	d, err := time.ParseDuration(p.Duration.StrVal)
	if err != nil {
		return -1
	}
	return int32(d.Seconds())
}
