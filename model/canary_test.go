package model

import (
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/argo"
)

func TestResolveCanarySteps(t *testing.T) {
	cases := []struct {
		name     string
		steps    string
		holds    string
		replicas int32
		want     string // pods/hold per step
		err      string
	}{
		{"percentages round up as maxSurge does", "1, 10%, 50%", "", 20, "1/pause 2/pause 10/pause 20/", ""},
		{"10% of 5 is 1 pod", "10%, 50%", "2m", 5, "1/2m0s 3/2m0s 5/", ""},
		{"an explicit 100% is the last step", "1, 100%", "30s", 4, "1/30s 4/", ""},
		{"a step of all replicas still holds", "3", "", 3, "3/pause 3/", ""},
		{"one hold each", "1, 25%", "pause, 90s", 8, "1/pause 2/1m30s 8/", ""},
		{"one replica: the new pod beside the old", "1", "", 1, "1/pause 1/", ""},
		{"steps that do not grow", "1, 10%", "", 3, "", "steps 1 and 10% come to 1 and 1 of 3 pods"},
		{"more pods than replicas", "1, 12", "", 10, "", "step 12 is 12 pods, more than the deployment's 10 replicas"},
		{"straight to 100%", "100%", "", 10, "", "goes straight to 100%"},
		{"100% before the end", "100%, 1", "", 10, "", "step 100% must be the last"},
		{"not a step", "half", "", 10, "", `step "half" is neither a pod count`},
		{"zero percent", "0%", "", 10, "", `step "0%" is not a percentage from 1% to 100%`},
		{"bad hold", "1", "soon", 10, "", `hold "soon" is neither pause nor a duration`},
		{"wrong number of holds", "1, 2, 3", "pause, 1m", 10, "", "2 holds for 3 steps before 100%"},
		{"no replicas", "1", "", 0, "", "needs at least 1 replica"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var holds []string
			if c.holds != "" {
				holds = strings.Split(c.holds, ",")
			}
			steps, err := ResolveCanarySteps(SplitCanaryList(c.steps), holds, c.replicas)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range steps {
				got = append(got, itoa(s.Pods)+"/"+s.Hold)
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("steps %s, want %s", g, c.want)
			}
		})
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

func TestEvaluateCanaryGates(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ready := func(name string, after time.Duration) CanaryPod {
		return CanaryPod{Name: name, Ready: true, ReadySince: start.Add(after)}
	}
	cases := []struct {
		name     string
		want     int32
		pods     []CanaryPod
		warnings []CanaryWarning
		at       time.Duration
		healthy  bool
		since    time.Duration
		failed   string
	}{
		{"all ready: healthy since the last became ready", 2, []CanaryPod{ready("a", 5*time.Second), ready("b", 9*time.Second)}, nil, time.Minute, true, 9 * time.Second, ""},
		{"one missing: waiting", 2, []CanaryPod{ready("a", 5*time.Second)}, nil, time.Minute, false, 0, ""},
		{"crash loop fails at once", 2, []CanaryPod{ready("a", time.Second), {Name: "b", BackOff: "CrashLoopBackOff", Restarts: 3}}, nil, 10 * time.Second, false, 0, "pod b: CrashLoopBackOff (3 restarts)"},
		{"image pull back-off", 1, []CanaryPod{{Name: "a", BackOff: "ImagePullBackOff"}}, nil, time.Second, false, 0, "pod a: ImagePullBackOff (0 restarts)"},
		{"a restart fails", 1, []CanaryPod{{Name: "a", Ready: true, Restarts: 1}}, nil, time.Second, false, 0, "pod a restarted 1 time"},
		{"a Warning event on a new pod", 1, []CanaryPod{ready("a", time.Second)}, []CanaryWarning{{Pod: "a", Reason: "Unhealthy", Message: "Readiness probe failed", Count: 4}}, time.Minute, false, 0, "pod a: Warning Unhealthy ×4: Readiness probe failed"},
		{"a Warning event on another pod is not ours", 1, []CanaryPod{ready("a", time.Second)}, []CanaryWarning{{Pod: "z", Reason: "Unhealthy", Count: 1}}, time.Minute, true, time.Second, ""},
		{"not ready past the deadline", 3, []CanaryPod{ready("a", time.Second), {Name: "b"}}, nil, 10 * time.Minute, false, 0, "progress deadline: 1 of 3 new pods ready after 10m0s"},
		{"a terminating pod is not ready", 1, []CanaryPod{{Name: "a", Ready: true, Terminating: true}}, nil, time.Minute, false, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := EvaluateCanaryGates(c.want, start, 10*time.Minute, true, c.pods, c.warnings, start.Add(c.at))
			if g.Failed != c.failed || g.Healthy != c.healthy {
				t.Fatalf("gates %+v, want healthy %v failed %q", g, c.healthy, c.failed)
			}
			if c.healthy && !g.Since.Equal(start.Add(c.since)) {
				t.Errorf("healthy since %v, want %v", g.Since, start.Add(c.since))
			}
		})
	}
}

func TestDecideCanary(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	deadline := int32(600)
	plan := CanaryPlan{Replicas: 10, Steps: []CanaryStep{{Spec: "1", Pods: 1, Hold: "2m0s"}, {Spec: "50%", Pods: 5, Hold: "pause"}, {Spec: "100%", Pods: 10}},
		Original: CanaryOriginal{ProgressDeadlineSeconds: &deadline}}
	at := func(step int) Canary {
		return Canary{Plan: plan, State: CanaryState{Step: step, Phase: CanaryHolding, Since: start}}
	}
	gated := func(step int, verdict argo.AnalysisPhase) Canary {
		c := at(step)
		c.Plan.Gates = []argo.Metric{{Name: "error-rate", SuccessCondition: "result < 0.05"}}
		if verdict != "" {
			c.State.Analysis = &argo.AnalysisRunStatus{Phase: verdict}
		}
		return c
	}
	healthy := CanaryGates{Healthy: true, Since: start.Add(30 * time.Second)}
	cases := []struct {
		name  string
		c     Canary
		g     CanaryGates
		now   time.Duration
		next  CanaryNext
		after time.Duration
	}{
		{"timed hold counts from healthy", at(1), healthy, time.Minute, canaryWait, 90 * time.Second},
		{"timed hold passed", at(1), healthy, 150 * time.Second, CanaryAdvance, 0},
		{"pause waits for the operator", at(2), healthy, time.Hour, canaryWait, 0},
		{"not healthy: look again at the deadline", at(1), CanaryGates{}, time.Minute, canaryWait, 9 * time.Minute},
		{"a failed gate", at(1), CanaryGates{Failed: "pod a restarted 1 time"}, time.Minute, CanaryFail, 0},
		{"failed and held: nothing more", Canary{Plan: plan, State: CanaryState{Step: 1, Phase: CanaryFailed}}, CanaryGates{Failed: "x"}, time.Minute, canaryWait, 0},
		{"gated: the hold passed, the analysis still running", gated(1, argo.AnalysisPhaseRunning), healthy, 150 * time.Second, canaryWait, 0},
		{"gated: no measurement yet", gated(1, ""), healthy, 150 * time.Second, canaryWait, 0},
		{"gated: the hold passed and the analysis succeeded", gated(1, argo.AnalysisPhaseSuccessful), healthy, 150 * time.Second, CanaryAdvance, 0},
		{"gated: the analysis succeeded, the hold not passed", gated(1, argo.AnalysisPhaseSuccessful), healthy, time.Minute, canaryWait, 90 * time.Second},
		{"gated: a failed analysis fails the step at once", gated(1, argo.AnalysisPhaseFailed), healthy, time.Minute, CanaryFail, 0},
		{"gated: an errored analysis (the source is down) holds for a human", gated(1, argo.AnalysisPhaseError), healthy, time.Minute, CanaryHoldInconclusive, 0},
		{"gated: inconclusive holds for a human", gated(1, argo.AnalysisPhaseInconclusive), healthy, time.Hour, CanaryHoldInconclusive, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			next, after := DecideCanary(c.c, c.g, start.Add(c.now))
			if next != c.next || after != c.after {
				t.Errorf("DecideCanary = %v after %v, want %v after %v", next, after, c.next, c.after)
			}
		})
	}
}

func TestForecastCanary(t *testing.T) {
	surge, unavailable := intstr.FromString("25%"), intstr.FromInt32(2)
	p := CanaryPlan{Replicas: 20, Steps: []CanaryStep{{Spec: "1", Pods: 1, Hold: "pause"}, {Spec: "50%", Pods: 10, Hold: "5m0s"}, {Spec: "100%", Pods: 20}},
		Original: CanaryOriginal{Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}}}}
	f := ForecastCanary(p)
	if f.PeakPods != 30 || f.LowestAvailable != 18 || f.Held != 5*time.Minute || f.Pauses != 1 {
		t.Errorf("forecast %+v: want peak 30 (20 + the 10-pod step), lowest available 18 (maxUnavailable 2 in the last step), 5m held, 1 pause", f)
	}
	if got := []int32{f.Steps[0].NewPods, f.Steps[0].OldPods, f.Steps[1].NewPods, f.Steps[2].NewPods}; got[0] != 1 || got[1] != 20 || got[2] != 10 || got[3] != 20 {
		t.Errorf("step pods %v", got)
	}
}

func TestCanaryAnnotationsRoundTripAndTellStaleCopies(t *testing.T) {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: map[string]string{}}}
	d.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app", Image: "web:v2"}}
	deadline := int32(600)
	c := Canary{Plan: CanaryPlan{Change: "set image app=web:v2", Replicas: 4, Steps: []CanaryStep{{Spec: "1", Pods: 1, Hold: "pause"}, {Spec: "100%", Pods: 4}},
		OnFailure: CanaryOnFailurePause, Original: CanaryOriginal{MinReadySeconds: 5, ProgressDeadlineSeconds: &deadline},
		Template: PodTemplateHash(&d.Spec.Template, nil)},
		State: CanaryState{Step: 1, Phase: CanaryHolding, Since: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		Lease: CanaryLease{Holder: "a", Renewed: time.Date(2026, 1, 1, 0, 0, 5, 0, time.UTC)}}
	c.Write(&d.ObjectMeta)
	HoldCanaryStep(d, 1)
	got, ok, err := ReadCanary(d)
	if err != nil || !ok || got.State != c.State || got.Lease != c.Lease || got.Plan.Steps[1] != c.Plan.Steps[1] || *got.Plan.Original.ProgressDeadlineSeconds != 600 {
		t.Fatalf("read back %+v ok %v err %v", got, ok, err)
	}
	if !CanaryCurrent(d, got) || !CanaryHeld(d) {
		t.Error("the canary written is not the current one")
	}
	// The label is how a console's controllers find canaries (they watch
	// only the Deployments it selects); ending the canary takes it too.
	if d.Labels[CanaryLabel] == "" {
		t.Errorf("a canary's Deployment is not labelled %s: %v", CanaryLabel, d.Labels)
	}
	ended := d.DeepCopy()
	DropCanary(&ended.ObjectMeta)
	if HasCanaryAnnotations(ended) || len(ended.Labels) != 0 {
		t.Errorf("an ended canary left %v, %v", ended.Annotations, ended.Labels)
	}
	stale := d.DeepCopy()
	stale.Spec.Template.Spec.Containers[0].Image = "web:v1"
	if CanaryCurrent(stale, got) {
		t.Error("a Deployment on another template runs the canary")
	}
	released := d.DeepCopy()
	got.Plan.Original.Restore(released)
	if CanaryCurrent(released, got) {
		t.Error("a holding canary without its hold is current")
	}
	if released.Spec.MinReadySeconds != 5 || *released.Spec.ProgressDeadlineSeconds != 600 {
		t.Errorf("restored %d / %d", released.Spec.MinReadySeconds, *released.Spec.ProgressDeadlineSeconds)
	}
	// Read without the hold: the Deployment's own settings, on a copy.
	if own := CanaryUnheld(d); own == d || own.Spec.MinReadySeconds != 5 || *own.Spec.ProgressDeadlineSeconds != 600 || !CanaryHeld(d) {
		t.Errorf("unheld %d / %d, the held Deployment changed: %v", own.Spec.MinReadySeconds, *own.Spec.ProgressDeadlineSeconds, !CanaryHeld(d))
	}
	if CanaryUnheld(released) != released {
		t.Error("a Deployment nothing holds was copied")
	}
	if !got.Lease.HeldByOther("b", got.Lease.Renewed.Add(CanaryLeaseDuration-time.Second)) ||
		got.Lease.HeldByOther("b", got.Lease.Renewed.Add(CanaryLeaseDuration)) || got.Lease.HeldByOther("a", got.Lease.Renewed) {
		t.Error("the lease is held by the wrong one")
	}
	d.Annotations[CanaryAnnotation] = "{"
	if _, _, err := ReadCanary(d); err == nil || !strings.Contains(err.Error(), "is not a canary plan") {
		t.Errorf("unreadable plan: %v", err)
	}
}

func TestCanaryStepRequest(t *testing.T) {
	surge, unavailable := intstr.FromString("25%"), intstr.FromInt32(0)
	deadline := int32(600)
	p := CanaryPlan{Steps: []CanaryStep{{Pods: 2}, {Pods: 8}},
		Original: CanaryOriginal{MinReadySeconds: 10, ProgressDeadlineSeconds: &deadline, Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}}}}
	if got, want := CanaryStepRequest("web", p, 1), `kubectl patch deployment/web -p '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":2,"maxUnavailable":0}},"minReadySeconds":2147483646,"progressDeadlineSeconds":2147483647}}'`; got != want {
		t.Errorf("step 1:\n got %s\nwant %s", got, want)
	}
	if got, want := CanaryStepRequest("web", p, 2), `kubectl patch deployment/web -p '{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":0}},"minReadySeconds":10,"progressDeadlineSeconds":600}}'`; got != want {
		t.Errorf("last step:\n got %s\nwant %s", got, want)
	}
}

func TestIsPodAvailableWithTheHoldNeverOverflows(t *testing.T) {
	// The hold's 2147483646 s is about 68 years: as a time.Duration it
	// must not wrap to the past, or held pods would count as available.
	readyAt := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(readyAt)}}}}
	for _, later := range []time.Duration{0, time.Hour, 24 * 365 * time.Hour, 60 * 24 * 365 * time.Hour} {
		if IsPodAvailable(p, CanaryHoldMinReadySeconds, readyAt.Add(later)) {
			t.Errorf("a held pod counts as available %v after it became ready", later)
		}
	}
	if !IsPodAvailable(p, 5, readyAt.Add(time.Minute)) {
		t.Error("the same pod under minReadySeconds 5 is not available after a minute")
	}
}

// TestGateEvidence: the line an operator reads when a metric gate ends a
// step names the metric, its last values, the condition they were held to
// and the limit they crossed; an erroring source says what the provider
// answered.
func TestGateEvidence(t *testing.T) {
	one := intstr.FromInt32(1)
	gate := argo.Metric{Name: "error-rate", SuccessCondition: "result[0] < 0.05", FailureLimit: &one}
	ms := func(phase argo.AnalysisPhase, values ...string) []argo.Measurement {
		var out []argo.Measurement
		for _, v := range values {
			out = append(out, argo.Measurement{Phase: phase, Value: v})
		}
		return out
	}
	failed := &argo.AnalysisRunStatus{Phase: argo.AnalysisPhaseFailed, MetricResults: []argo.MetricResult{{
		Name: "error-rate", Phase: argo.AnalysisPhaseFailed, Count: 3, Failed: 2, Successful: 1,
		Measurements: append(ms(argo.AnalysisPhaseSuccessful, "[0.01]"), ms(argo.AnalysisPhaseFailed, "[0.07]", "[0.12]")...)}}}
	if got, want := GateEvidence([]argo.Metric{gate}, failed), "error-rate [0.01], [0.07], [0.12] against success: result[0] < 0.05 (failed 2 > limit 1 of 3 measured)"; got != want {
		t.Errorf("failed evidence = %q\nwant %q", got, want)
	}
	down := &argo.AnalysisRunStatus{Phase: argo.AnalysisPhaseError, MetricResults: []argo.MetricResult{{
		Name: "error-rate", Phase: argo.AnalysisPhaseError, Error: 5, ConsecutiveError: 5,
		Measurements: []argo.Measurement{{Phase: argo.AnalysisPhaseError, Message: `Post "http://127.0.0.1:9/api/v1/query": dial tcp 127.0.0.1:9: connect: connection refused`}}}}}
	if got, want := GateEvidence([]argo.Metric{gate}, down), `error-rate: 5 errors in a row > limit 4: Post "http://127.0.0.1:9/api/v1/query": dial tcp 127.0.0.1:9: connect: connection refused`; got != want {
		t.Errorf("error evidence = %q\nwant %q", got, want)
	}
	if got := GateEvidence(nil, nil); got != "" {
		t.Errorf("no analysis has evidence %q", got)
	}
}
