package cluster

import (
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/argo"
)

// CanaryView is a guided canary as the screen shows it.
type CanaryView struct {
	Step, Steps int
	Phase       string
	// Pods is how many pods of the canary's ReplicaSet are running now, of
	// Want for the step and Replicas in all; Revision is the canary's.
	Pods, Want, Replicas int32
	Revision             int64
	Change               string
	// Hold is the step's hold ("pause" or "2m0s"), "" at the last step.
	Hold      string
	OnFailure string
	Gates     model.CanaryGates
	// Gate is the failed gate's evidence once the step has failed.
	Gate string
	// Driver is the rollscope driving it, "" when no lease is held.
	Driver string
	// Plan is the whole plan, for the promote confirmation.
	Plan model.CanaryPlan
	// Metrics are the step's metric gates with their measurements so
	// far; none when the plan has no gates or the step is the last.
	Metrics []MetricView
}

// Sentence is the header's line: "canary step 2/4 · 5/20 pods on rev 2 ·
// holding (gates ok for 1m12s)". now is the cluster's clock.
func (v CanaryView) Sentence(now time.Time) string {
	head := fmt.Sprintf("canary step %d/%d · %d/%d pods on rev %d · ", v.Step, v.Steps, v.Pods, v.Replicas, v.Revision)
	switch v.Phase {
	case model.CanaryRolling:
		return head + "last step: rolling out on the deployment's own strategy"
	case model.CanaryFailed:
		return head + "held: gate failed — " + v.Gate + " (promote or abort)"
	case model.CanaryInconclusive:
		return head + "held: " + v.Gate + " (promote or abort)"
	}
	g := v.Gates
	switch {
	case g.Failed != "":
		return head + "gate failing: " + g.Failed
	case !g.Healthy:
		return head + fmt.Sprintf("starting: %d/%d new pods ready (held: ready, never available)", g.Ready, g.Want)
	}
	ok := "gates ok for " + shortDuration(now.Sub(g.Since)) + "; new pods ready, held from available"
	if d, timed := (model.CanaryStep{Hold: v.Hold}).HoldFor(); timed {
		return head + fmt.Sprintf("holding %s (%s)", shortDuration(d), ok) + v.metricsSaying()
	}
	return head + "holding for promote (" + ok + ")" + v.metricsSaying()
}

// metricsSaying is the step's metric gates so far in a few words
// (" · error-rate [0.01] Running 1 of 4"), for the sentence that --plain
// prints: each new measurement is a new line there.
func (v CanaryView) metricsSaying() string {
	var b strings.Builder
	for _, m := range v.Metrics {
		last := "not measured yet"
		if n := len(m.Last); n > 0 {
			last = m.Last[n-1] + " " + string(m.Phase) + " " + m.measuredOf()
		}
		b.WriteString(" · " + m.Name + " " + last)
	}
	return b.String()
}

// canaryHeldAt is what d's canary waits for the operator at, for a run
// that would otherwise wait for ever: a failed or inconclusive step, or a
// step whose pods are up and held until a promote. "" when it waits for
// nothing but time.
func canaryHeldAt(d *appsv1.Deployment) string {
	if _, ok := d.Annotations[model.CanaryAnnotation]; !ok {
		return ""
	}
	cn, ok, err := model.ReadCanary(d)
	if err != nil || !ok || !model.CanaryCurrent(d, cn) {
		return ""
	}
	at := fmt.Sprintf("canary step %d/%d held", cn.State.Step, cn.Plan.Last())
	switch cn.State.Phase {
	case model.CanaryFailed:
		return at + ": gate failed — " + cn.State.Gate
	case model.CanaryInconclusive:
		return at + ": " + cn.State.Gate
	case model.CanaryHolding:
		step := cn.Plan.Step(cn.State.Step)
		if _, timed := step.HoldFor(); !timed && !cn.Measuring() && d.Status.UpdatedReplicas >= step.Pods {
			return at + " for a promote"
		}
	}
	return ""
}

// shortDuration is a duration in whole seconds: 1m12s.
func shortDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return d.Truncate(time.Second).String()
}

// canaryView fills v's canary from d and shows the Deployment's own
// settings, saved by the canary, in place of the hold's: the hold's
// minReadySeconds of 68 years is the technique, not the Deployment's.
func (c *Cluster) canaryView(v *RolloutView, d *appsv1.Deployment, newRS *appsv1.ReplicaSet, now time.Time) {
	if _, ok := d.Annotations[model.CanaryAnnotation]; !ok {
		return
	}
	cn, ok, err := model.ReadCanary(d)
	if err != nil || !ok || !model.CanaryCurrent(d, cn) {
		return
	}
	step := cn.Plan.Step(cn.State.Step)
	cv := CanaryView{Step: cn.State.Step, Steps: cn.Plan.Last(), Phase: cn.State.Phase, Want: step.Pods, Replicas: cn.Plan.Replicas,
		Change: cn.Plan.Change, Hold: step.Hold, OnFailure: cn.Plan.OnFailure, Gate: cn.State.Gate, Plan: cn.Plan}
	if !cn.Lease.Renewed.IsZero() && now.Before(cn.Lease.Renewed.Add(model.CanaryLeaseDuration)) {
		cv.Driver = cn.Lease.Holder
	}
	var pods []model.CanaryPod
	var warnings []model.CanaryWarning
	if newRS != nil {
		cv.Revision = revisionOrZero(newRS)
		for _, key := range c.podsByOwner.sorted(newRS.UID) {
			pe := c.pods[key]
			if pe == nil || pe.pod.Namespace != d.Namespace || !model.IsPodActive(pe.pod) {
				continue
			}
			cv.Pods++
			pods = append(pods, model.CanaryPodOf(pe.pod))
			for _, ek := range c.eventsByObject.sorted(ObjectRef{Kind: "Pod", Namespace: pe.pod.Namespace, Name: pe.pod.Name}) {
				if e := c.events[ek]; e != nil {
					if w, ok := model.CanaryWarningOf(e); ok {
						warnings = append(warnings, w)
					}
				}
			}
		}
	}
	deadline, has := cn.Plan.Original.Deadline()
	cv.Gates = model.EvaluateCanaryGates(step.Pods, cn.State.Since, deadline, has, pods, warnings, now)
	if cn.Gated() {
		cv.Metrics = gateMetrics(cn.Plan.Gates, cn.State.Analysis)
	}
	v.Canary = &cv
	if cn.State.Phase != model.CanaryRolling {
		showOriginal(v, cn.Plan.Original)
	}
}

// showOriginal puts the Deployment's own settings in the view.
func showOriginal(v *RolloutView, o model.CanaryOriginal) {
	v.Strategy = string(o.Strategy.Type)
	v.MaxSurgeSpec, v.MaxUnavailableSpec = "", ""
	v.MaxSurge, v.MaxUnavailable = 0, 0
	if ru := o.Strategy.RollingUpdate; ru != nil {
		v.MaxSurgeSpec, v.MaxUnavailableSpec = intOrStringSpec(ru.MaxSurge), intOrStringSpec(ru.MaxUnavailable)
		s, u, _ := model.ResolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, v.Replicas)
		v.MaxSurge, v.MaxUnavailable = s, min(u, v.Replicas)
	}
	v.MinReadySeconds = o.MinReadySeconds
	v.ProgressDeadlineSeconds = 0
	if p := o.ProgressDeadlineSeconds; p != nil {
		v.ProgressDeadlineSeconds = *p
	}
}

// CanaryPlanForView resolves a canary's steps against the rollout shown,
// for the dialog's confirmation and forecast; the engine resolves them
// again against the Deployment it reads before it writes.
func CanaryPlanForView(v RolloutView, change string, steps, holds []string, onFailure string) (model.CanaryPlan, error) {
	if v.Canary != nil {
		return model.CanaryPlan{}, fmt.Errorf("deployment/%s already runs a canary (step %d of %d) — promote or abort it first", v.Name, v.Canary.Step, v.Canary.Steps)
	}
	if v.Strategy != string(appsv1.RollingUpdateDeploymentStrategyType) {
		return model.CanaryPlan{}, fmt.Errorf("deployment/%s uses the %s strategy: a canary needs RollingUpdate", v.Name, v.Strategy)
	}
	if v.Paused {
		return model.CanaryPlan{}, fmt.Errorf("deployment/%s is paused — resume it first (r)", v.Name)
	}
	if !v.Done {
		return model.CanaryPlan{}, model.StillRolling(v.Name)
	}
	of, err := model.CheckCanaryOnFailure(onFailure)
	if err != nil {
		return model.CanaryPlan{}, err
	}
	resolved, err := model.ResolveCanarySteps(steps, holds, v.Replicas)
	if err != nil {
		return model.CanaryPlan{}, err
	}
	p := model.CanaryPlan{Change: change, Replicas: v.Replicas, Steps: resolved, OnFailure: of, Original: model.CanaryOriginal{
		Strategy:        appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{}},
		MinReadySeconds: v.MinReadySeconds}}
	if v.MaxSurgeSpec != "" {
		s := intstr.Parse(v.MaxSurgeSpec)
		p.Original.Strategy.RollingUpdate.MaxSurge = &s
	}
	if v.MaxUnavailableSpec != "" {
		u := intstr.Parse(v.MaxUnavailableSpec)
		p.Original.Strategy.RollingUpdate.MaxUnavailable = &u
	}
	if v.ProgressDeadlineSeconds > 0 {
		pd := v.ProgressDeadlineSeconds
		p.Original.ProgressDeadlineSeconds = &pd
	}
	return p, nil
}

// CanaryForecastLines are the dialog's forecast of plan p, a line a step
// and a summary.
func CanaryForecastLines(p model.CanaryPlan) []string {
	f := model.ForecastCanary(p)
	var out []string
	for k, s := range f.Steps {
		if k == len(f.Steps)-1 {
			out = append(out, fmt.Sprintf("step %d (100%%): the deployment's own strategy rolls the other %s, at least %d available",
				k+1, model.Plural(p.Replicas-p.Step(k).Pods, "pod"), s.LowestAvailable))
			break
		}
		hold := "until you promote"
		if d, ok := s.Step.HoldFor(); ok {
			hold = "for " + d.String() + " once the gates pass"
		}
		out = append(out, fmt.Sprintf("step %d (%s): exactly %d new + %s, all %d old available; held %s",
			k+1, s.Step.Spec, s.NewPods, model.Plural(s.OldPods, "old pod"), s.OldPods, hold))
	}
	time := "holds add up to " + f.Held.String()
	switch {
	case f.Held == 0:
		time = "every step waits for your promote"
	case f.Pauses > 0:
		time += fmt.Sprintf(", plus %s for your promote", model.Plural(f.Pauses, "pause"))
	}
	out = append(out, fmt.Sprintf("peak %s · lowest availability %d of %d · %s, plus pod start-up", model.Plural(f.PeakPods, "pod"), f.LowestAvailable, p.Replicas, time))
	onFail := "holds the step and says which gate failed"
	if p.OnFailure == model.CanaryOnFailureAbort {
		onFail = "aborts back to the stable revision"
	}
	out = append(out, "gates: restarts, crash-loop or image-pull back-off, Warning events on the new pods, and each step's progress deadline; a failed gate "+onFail)
	return out
}

// gateMetrics are a guided canary's metric gates as the Argo page shows an
// AnalysisRun's metrics: each with its measurements of the step so far.
func gateMetrics(gates []argo.Metric, st *argo.AnalysisRunStatus) []MetricView {
	run := &argo.AnalysisRun{Spec: argo.AnalysisRunSpec{Metrics: gates}}
	if st != nil {
		run.Status = *st
	}
	v := analysisRunView(run)
	shown := map[string]bool{}
	for _, m := range v.Metrics {
		shown[m.Name] = true
	}
	for _, g := range gates {
		if !shown[g.Name] {
			v.Metrics = append(v.Metrics, MetricView{Name: g.Name, Phase: argo.AnalysisPhasePending, Limits: argo.LimitsOf(g),
				SuccessCondition: g.SuccessCondition, FailureCondition: g.FailureCondition})
		}
	}
	return v.Metrics
}
