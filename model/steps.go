package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// SplitCanaryList splits "1, 10%, 50%" (commas or spaces) into its items.
func SplitCanaryList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

// ResolveCanarySteps turns the steps as written (pod counts or percentages
// of replicas, a percentage rounded up as maxSurge is) into a plan's steps,
// with the last always 100%. holds are the holds of the steps before the
// last: one for all of them, or one each; each is "pause" or a duration.
func ResolveCanarySteps(specs, holds []string, replicas int32) ([]CanaryStep, error) {
	if replicas < 1 {
		return nil, fmt.Errorf("a canary needs at least 1 replica; scale the deployment up first")
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("the canary has no steps (write them like 1, 10%%, 50%%)")
	}
	var steps []CanaryStep
	for i, sp := range specs {
		sp = strings.TrimSpace(sp)
		pods, err := resolveCanaryStep(sp, replicas)
		if err != nil {
			return nil, err
		}
		if sp == "100%" && i != len(specs)-1 {
			return nil, fmt.Errorf("step 100%% must be the last (the canary ends there)")
		}
		if pods > replicas {
			return nil, fmt.Errorf("step %s is %s, more than the deployment's %s (use at most %d, or 100%%)", sp, Plural(pods, "pod"), Plural(replicas, "replica"), replicas)
		}
		if n := len(steps); n > 0 && pods <= steps[n-1].Pods {
			return nil, fmt.Errorf("steps %s and %s come to %d and %d of %d pods: each step must hold more pods than the one before (drop one)",
				steps[n-1].Spec, sp, steps[n-1].Pods, pods, replicas)
		}
		steps = append(steps, CanaryStep{Spec: sp, Pods: pods})
	}
	if last := steps[len(steps)-1]; last.Spec != "100%" {
		steps = append(steps, CanaryStep{Spec: "100%", Pods: replicas})
	}
	held := len(steps) - 1
	if held == 0 {
		return nil, fmt.Errorf("the canary goes straight to 100%%: give it a step below, like 1 or 10%%")
	}
	if len(holds) == 0 {
		holds = []string{CanaryHoldPause}
	}
	if len(holds) != 1 && len(holds) != held {
		return nil, fmt.Errorf("%s for %s before 100%%: write one hold for all of them or one each", Plural(len(holds), "hold"), Plural(held, "step"))
	}
	for i := range held {
		h := holds[0]
		if len(holds) > 1 {
			h = holds[i]
		}
		hold, err := checkCanaryHold(strings.TrimSpace(h))
		if err != nil {
			return nil, err
		}
		steps[i].Hold = hold
	}
	return steps, nil
}

// resolveCanaryStep resolves one step against replicas.
func resolveCanaryStep(sp string, replicas int32) (int32, error) {
	if p, ok := strings.CutSuffix(sp, "%"); ok {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 100 {
			return 0, fmt.Errorf("step %q is not a percentage from 1%% to 100%%", sp)
		}
		v := intstr.FromString(sp)
		pods, err := intstr.GetScaledValueFromIntOrPercent(&v, int(replicas), true)
		if err != nil {
			return 0, fmt.Errorf("step %q: %w", sp, err)
		}
		return int32(pods), nil
	}
	n, err := strconv.Atoi(sp)
	if err != nil || n <= 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("step %q is neither a pod count (1, 2, ...) nor a percentage (10%%)", sp)
	}
	return int32(n), nil
}

// checkCanaryHold reads a hold: "pause", or a positive duration.
func checkCanaryHold(h string) (string, error) {
	if h == CanaryHoldPause || h == "" {
		return CanaryHoldPause, nil
	}
	d, err := time.ParseDuration(h)
	if err != nil || d <= 0 {
		return "", fmt.Errorf("hold %q is neither pause nor a duration like 2m", h)
	}
	return d.String(), nil
}

// CheckCanaryOnFailure reads onFailure: pause (the default) or abort.
func CheckCanaryOnFailure(s string) (string, error) {
	switch s {
	case "", CanaryOnFailurePause:
		return CanaryOnFailurePause, nil
	case CanaryOnFailureAbort:
		return CanaryOnFailureAbort, nil
	}
	return "", fmt.Errorf("onFailure %q is neither pause nor abort", s)
}

// CheckCanaryStart refuses a Deployment a canary cannot start on, saying
// what to do instead.
func CheckCanaryStart(d *appsv1.Deployment) error {
	switch {
	case HasCanaryAnnotations(d):
		if c, ok, _ := ReadCanary(d); ok && CanaryCurrent(d, c) {
			return fmt.Errorf("deployment/%s already runs a canary (step %d of %d) — promote or abort it first", d.Name, c.State.Step, c.Plan.Last())
		}
	case CanaryHeld(d):
		return fmt.Errorf("deployment/%s carries a canary hold (minReadySeconds %d) with no canary to say what it replaced — set its strategy back first", d.Name, d.Spec.MinReadySeconds)
	}
	if !IsRollingUpdate(d) {
		return fmt.Errorf("deployment/%s uses the %s strategy: a canary needs RollingUpdate", d.Name, d.Spec.Strategy.Type)
	}
	if d.Spec.Paused {
		return fmt.Errorf("deployment/%s is paused — resume it first (r)", d.Name)
	}
	if !DeploymentComplete(d, &d.Status) || d.Status.ObservedGeneration < d.Generation {
		return StillRolling(d.Name)
	}
	return nil
}

// HoldCanaryStep sets d up to hold a step of pods new pods: the new
// ReplicaSet grows to exactly pods (maxSurge) while no old pod may go
// (maxUnavailable 0, and new pods never become available).
func HoldCanaryStep(d *appsv1.Deployment, pods int32) {
	surge, zero := intstr.FromInt32(pods), intstr.FromInt32(0)
	d.Spec.Strategy = appsv1.DeploymentStrategy{
		Type:          appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &zero},
	}
	d.Spec.MinReadySeconds = CanaryHoldMinReadySeconds
	deadline := CanaryHoldDeadlineSeconds
	d.Spec.ProgressDeadlineSeconds = &deadline
	d.Spec.Paused = false
}

// CanaryStepRequest is the request step k sends, as `kubectl patch` would
// send it (rollscope sends it as an update with the resourceVersion it
// read, together with the canary's annotations).
func CanaryStepRequest(name string, p CanaryPlan, k int) string {
	if k >= p.Last() {
		o := p.Original
		rs := ""
		if ru := o.Strategy.RollingUpdate; ru != nil {
			rs = fmt.Sprintf(`,"rollingUpdate":{"maxSurge":%s,"maxUnavailable":%s}`, intOrStringJSON(ru.MaxSurge), intOrStringJSON(ru.MaxUnavailable))
		}
		deadline := "null"
		if o.ProgressDeadlineSeconds != nil {
			deadline = strconv.Itoa(int(*o.ProgressDeadlineSeconds))
		}
		return fmt.Sprintf(`kubectl patch deployment/%s -p '{"spec":{"strategy":{"type":%q%s},"minReadySeconds":%d,"progressDeadlineSeconds":%s}}'`,
			name, o.Strategy.Type, rs, o.MinReadySeconds, deadline)
	}
	return fmt.Sprintf(`kubectl patch deployment/%s -p '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":%d,"maxUnavailable":0}},"minReadySeconds":%d,"progressDeadlineSeconds":%d}}'`,
		name, p.Step(k).Pods, CanaryHoldMinReadySeconds, CanaryHoldDeadlineSeconds)
}

func intOrStringJSON(v *intstr.IntOrString) string {
	if v == nil {
		return "null"
	}
	if v.Type == intstr.String {
		return strconv.Quote(v.StrVal)
	}
	return strconv.Itoa(int(v.IntVal))
}

// CanaryStepForecast is what one step of a plan will look like while it
// holds.
type CanaryStepForecast struct {
	Step            CanaryStep
	NewPods         int32 // pods of the canary's ReplicaSet
	OldPods         int32 // pods of the stable one
	LowestAvailable int32
}

// CanaryForecast is a whole plan's forecast.
type CanaryForecast struct {
	Steps []CanaryStepForecast
	// PeakPods is the most pods at once: replicas plus the largest held
	// step, or plus the Deployment's own maxSurge during the last step.
	PeakPods int32
	// LowestAvailable is the fewest available pods at any time: replicas
	// while steps hold (no old pod goes), replicas − maxUnavailable during
	// the last step, which runs on the Deployment's own strategy.
	LowestAvailable int32
	// Held is the time timed holds add up to; Pauses the steps that wait
	// for the operator. Pods starting add to both.
	Held   time.Duration
	Pauses int
}

// ForecastCanary forecasts plan p.
func ForecastCanary(p CanaryPlan) CanaryForecast {
	r := p.Replicas
	f := CanaryForecast{PeakPods: r, LowestAvailable: r}
	for k, s := range p.Steps {
		if k == len(p.Steps)-1 {
			var ms, mu *intstr.IntOrString
			if ru := p.Original.Strategy.RollingUpdate; ru != nil {
				ms, mu = ru.MaxSurge, ru.MaxUnavailable
			}
			surge, unavailable, _ := ResolveFenceposts(ms, mu, r)
			unavailable = min(unavailable, r)
			f.PeakPods = max(f.PeakPods, r+surge)
			f.LowestAvailable = min(f.LowestAvailable, r-unavailable)
			f.Steps = append(f.Steps, CanaryStepForecast{Step: s, NewPods: r, LowestAvailable: r - unavailable})
			break
		}
		f.Steps = append(f.Steps, CanaryStepForecast{Step: s, NewPods: s.Pods, OldPods: r, LowestAvailable: r})
		f.PeakPods = max(f.PeakPods, r+s.Pods)
		if d, ok := s.HoldFor(); ok {
			f.Held += d
		} else {
			f.Pauses++
		}
	}
	return f
}

// CheckCanaryStep checks one step's spelling: a pod count (1, 2, ...) or a
// percentage (1% to 100%), before the replicas it resolves against are known.
func CheckCanaryStep(sp string) error {
	_, err := resolveCanaryStep(strings.TrimSpace(sp), 1)
	return err
}

// CheckCanaryHold checks a hold's spelling: pause, or a positive duration.
func CheckCanaryHold(h string) error {
	_, err := checkCanaryHold(strings.TrimSpace(h))
	return err
}

// StillRolling is why a canary cannot start mid-rollout, said once for the
// engine's check and the console's plan.
func StillRolling(name string) error {
	return fmt.Errorf("deployment/%s is still rolling out — let it finish, or abort (x)", name)
}
