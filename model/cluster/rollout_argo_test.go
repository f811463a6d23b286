package cluster_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/cluster"
	"rollscope/model/kind"
)

func ptr32(n int32) *int32 { return &n }

// argoCanary is a 10-pod canary Rollout rolling from v1 (hash 7f9) to v2
// (hash 8c1), at step 3/6 (setWeight 50), with its two ReplicaSets.
func argoCanary(edit func(*argo.Rollout)) []runtime.Object {
	ten := int32(10)
	ro := &argo.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "checkout", Namespace: shop, UID: "ro-uid", Generation: 3, ResourceVersion: "1",
			CreationTimestamp: metav1.Time{Time: at(0)}, Annotations: map[string]string{argo.RevisionAnnotation: "2"}},
		Spec: argo.RolloutSpec{Replicas: &ten, Template: podTemplate("checkout", "shop/checkout:v2"),
			Strategy: argo.RolloutStrategy{Canary: &argo.CanaryStrategy{Steps: []argo.CanaryStep{
				{SetWeight: ptr32(10)}, {Pause: &argo.RolloutPause{}}, {SetWeight: ptr32(50)},
				{Pause: &argo.RolloutPause{Duration: &intstr.IntOrString{Type: intstr.String, StrVal: "10m"}}},
				{Analysis: &argo.RolloutAnalysis{Templates: []argo.AnalysisTemplateRef{{TemplateName: "error-rate"}}}},
				{Experiment: []byte(`{"duration":"5m","templates":[{"name":"baseline","specRef":"stable"},{"name":"canary","specRef":"canary"}]}`)},
			}}}},
		Status: argo.RolloutStatus{ObservedGeneration: "3", Phase: argo.RolloutPhaseProgressing, Message: "more replicas need to be updated",
			Replicas: 10, UpdatedReplicas: 5, ReadyReplicas: 10, AvailableReplicas: 10, StableRS: "7f9", CurrentPodHash: "8c1", CurrentStepIndex: ptr32(2)},
	}
	if edit != nil {
		edit(ro)
	}
	rs := func(hash, image, revision string, n int32, created time.Time) *appsv1.ReplicaSet {
		// Argo labels its ReplicaSets' templates with their hash.
		tmpl := podTemplate("checkout", image)
		tmpl.Labels = map[string]string{"app": "checkout", argo.PodTemplateHashLabel: hash}
		return &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: "checkout-" + hash, Namespace: shop, UID: types.UID("rs-" + hash), ResourceVersion: "1",
				CreationTimestamp: metav1.Time{Time: created}, Labels: map[string]string{argo.PodTemplateHashLabel: hash},
				Annotations:     map[string]string{argo.RevisionAnnotation: revision},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ro, argo.GroupVersion.WithKind("Rollout"))}},
			Spec:   appsv1.ReplicaSetSpec{Replicas: &n, Template: tmpl},
			Status: appsv1.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n},
		}
	}
	return []runtime.Object{ro, rs("7f9", "shop/checkout:v1", "1", 5, at(0)), rs("8c1", "shop/checkout:v2", "2", 5, at(10))}
}

func failedRun(owner *argo.Rollout) *argo.AnalysisRun {
	return &argo.AnalysisRun{
		ObjectMeta: metav1.ObjectMeta{Name: "checkout-8c1-2-4", Namespace: shop, ResourceVersion: "1",
			Labels:          map[string]string{argo.RolloutTypeLabel: argo.RunForStep, argo.StepIndexLabel: "4"},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(owner, argo.GroupVersion.WithKind("Rollout"))}},
		Spec: argo.AnalysisRunSpec{Metrics: []argo.Metric{{Name: "error-rate", FailureCondition: "result[0] > 0.05"}}},
		Status: argo.AnalysisRunStatus{Phase: argo.AnalysisPhaseFailed, StartedAt: &metav1.Time{Time: at(20)},
			MetricResults: []argo.MetricResult{{Name: "error-rate", Phase: argo.AnalysisPhaseFailed, Count: 3, Failed: 3,
				Measurements: []argo.Measurement{{Phase: argo.AnalysisPhaseFailed, Value: "[0.07]"}, {Phase: argo.AnalysisPhaseFailed, Value: "[0.12]"}}}}},
	}
}

// A Rollout's fleet row says Argo's state, in the fleet's urgency order,
// with what it rests on.
func TestArgoRolloutFleetRowSaysArgosState(t *testing.T) {
	pauseAt := func(step int32, since time.Time, reason argo.PauseReason) func(*argo.Rollout) {
		return func(r *argo.Rollout) {
			r.Status.CurrentStepIndex, r.Status.Phase, r.Status.Message = ptr32(step), argo.RolloutPhasePaused, string(reason)
			r.Status.ControllerPause = true
			r.Status.PauseConditions = []argo.PauseCondition{{Reason: reason, StartTime: metav1.Time{Time: since}}}
		}
	}
	for _, c := range []struct {
		name  string
		edit  func(*argo.Rollout)
		run   bool
		state cluster.FleetState
		word  string
		why   string
	}{
		{"rolling", nil, false, cluster.FleetRolling, "rolling", "Progressing - more replicas need to be updated"},
		{"awaiting promotion", pauseAt(1, at(18), argo.PauseReasonCanaryPauseStep), false, cluster.FleetPaused, "awaiting promotion",
			"waiting 12m0s at step 2/6 (pause (until promoted)) — promote to go on"},
		{"timed pause", pauseAt(3, at(25), argo.PauseReasonCanaryPauseStep), false, cluster.FleetCanary, "paused 4/6",
			"5m0s left at step 4/6 (pause 10m)"},
		// A pause by hand holds the timed step: Argo does not end it while
		// spec.paused lasts, so nothing is "left" of it.
		{"timed pause held by hand", func(r *argo.Rollout) {
			pauseAt(3, at(25), argo.PauseReasonCanaryPauseStep)(r)
			r.Spec.Paused, r.Status.Message = true, "manually paused"
		}, false, cluster.FleetPaused, "paused", "manually paused (spec.paused) — resume to go on"},
		{"aborted", func(r *argo.Rollout) {
			r.Status.Abort, r.Status.Phase, r.Status.Message = true, argo.RolloutPhaseDegraded, "RolloutAborted: Rollout aborted update to revision 2"
		}, false, cluster.FleetFailed, "aborted", "RolloutAborted: Rollout aborted update to revision 2"},
		{"analysis failed", func(r *argo.Rollout) {
			r.Status.Abort, r.Status.Phase, r.Status.Message = true, argo.RolloutPhaseDegraded, "RolloutAborted: metric \"error-rate\" assessed Failed"
		}, true, cluster.FleetFailed, "analysis failed", "metric error-rate = [0.12] (failure: result[0] > 0.05) · 3 failed, 0 errors of 3"},
		{"degraded", func(r *argo.Rollout) {
			r.Status.Phase, r.Status.Message = argo.RolloutPhaseDegraded, "ProgressDeadlineExceeded: ReplicaSet \"checkout-8c1\" has timed out progressing."
		}, false, cluster.FleetFailed, "degraded", "ProgressDeadlineExceeded: ReplicaSet \"checkout-8c1\" has timed out progressing."},
		{"complete", func(r *argo.Rollout) {
			r.Status.Phase, r.Status.Message, r.Status.StableRS, r.Status.UpdatedReplicas, r.Status.CurrentStepIndex = argo.RolloutPhaseHealthy, "", "8c1", 10, ptr32(6)
		}, false, cluster.FleetComplete, "complete", ""},
	} {
		objs := argoCanary(c.edit)
		if c.run {
			objs = append(objs, failedRun(objs[0].(*argo.Rollout)))
		}
		cl := cluster.NewCluster()
		cl.Apply(cluster.Batch{Objects: objs, At: at(30), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
		rows := cl.Fleet("", at(30))
		if len(rows) != 1 {
			t.Fatalf("%s: %d rows", c.name, len(rows))
		}
		r := rows[0]
		if r.Kind != kind.Rollout || r.Ref() != "ro/checkout" || r.State != c.state || r.Word != c.word || r.Why != c.why {
			t.Errorf("%s: %s %v %q — %q\nwant %v %q — %q", c.name, r.Ref(), r.State, r.Word, r.Why, c.state, c.word, c.why)
		}
		if r.Desired != 10 || r.Revision != 2 {
			t.Errorf("%s: desired %d revision %d", c.name, r.Desired, r.Revision)
		}
	}
}

// The page's view: the step line, the steps, the images, the ReplicaSets
// with their roles and revisions, the analysis, and what is not shown.
func TestArgoRolloutView(t *testing.T) {
	objs := argoCanary(nil)
	objs = append(objs, failedRun(objs[0].(*argo.Rollout)))
	cl := cluster.NewCluster()
	cl.Apply(cluster.Batch{Objects: objs, At: at(30), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
	v, ok := cl.ArgoRollout(shop, "checkout", at(30))
	if !ok {
		t.Fatal("no view")
	}
	if v.StepLine != "step 3/6 · setWeight 50 · actual 5/10 pods" || v.Weight != 50 || v.Step != 2 || !v.Steps[2].Current || !v.Steps[1].Done {
		t.Errorf("step line %q weight %d step %d", v.StepLine, v.Weight, v.Step)
	}
	if len(v.ReplicaSets) != 2 || v.ReplicaSets[0].Name != "checkout-8c1" || v.ReplicaSets[0].Role != cluster.RoleNew || v.ReplicaSets[0].Revision != 2 ||
		v.ReplicaSets[1].Role != cluster.RoleStable || v.ReplicaSets[1].Hash != "7f9" {
		t.Errorf("replica sets %+v", v.ReplicaSets)
	}
	if strings.Join(v.StableImages, ",") != "web=shop/checkout:v1" || strings.Join(v.CanaryImages, ",") != "web=shop/checkout:v2" {
		t.Errorf("images %v → %v", v.StableImages, v.CanaryImages)
	}
	if len(v.Analysis) != 1 || v.Analysis[0].Metrics[0].Last[1] != "[0.12]" || v.Analysis[0].Metrics[0].Failed != 3 {
		t.Errorf("analysis %+v", v.Analysis)
	}
	const experiment = "experiment baseline=stable, canary=canary for 5m (shown, not driven by rollscope)"
	a := v.Analysis[0]
	if m := a.Metrics[0]; a.For != "step 5" || a.Current || m.Condition() != "failure: result[0] > 0.05" ||
		m.Verdict() != "failed 3 > limit 0 → Failed" ||
		m.Counts() != "failed 3 of limit 0 · inconclusive 0 of 0 · errors 0 (0 in a row of 4) · successful 0 of 3 measured" {
		t.Errorf("analysis for %q current %v: %q · %q · %q", a.For, a.Current, m.Condition(), m.Verdict(), m.Counts())
	}
	if len(v.NotShown) != 1 || v.NotShown[0] != "step 6: "+experiment {
		t.Errorf("not shown %q", v.NotShown)
	}
	want := []string{"canary · step 3/6 · setWeight 50 · actual 5/10 pods",
		"stable web=shop/checkout:v1 · canary web=shop/checkout:v2", "step 6: " + experiment}
	if strings.Join(v.Header, "\n") != strings.Join(want, "\n") {
		t.Errorf("header\n%s\nwant\n%s", strings.Join(v.Header, "\n"), strings.Join(want, "\n"))
	}
	// maxSurge and maxUnavailable are Argo's defaults, 25 % of 10 pods:
	// 3 up, 2 down; 10 pods run, all available.
	if v.Surge != (model.Headroom{Used: 0, Limit: 3}) || v.Unavailable != (model.Headroom{Used: 0, Limit: 2}) || v.SurgeLabel != "surge" {
		t.Errorf("headroom %s %+v unavailable %+v", v.SurgeLabel, v.Surge, v.Unavailable)
	}
	// History: the ReplicaSets' revisions, oldest first, the current one
	// marked, each with the diff an undo to it would make.
	if h := v.History; len(h) != 2 || h[0].Revision != 1 || h[0].Current || !h[1].Current || h[0].Name != "checkout-7f9" ||
		strings.Join(h[0].Images, ",") != "web=shop/checkout:v1" {
		t.Errorf("history %+v", h)
	} else {
		var changed []string
		for _, l := range h[0].Diff {
			if l.Op != ' ' {
				changed = append(changed, string(l.Op)+strings.TrimSpace(l.Text))
			}
		}
		if strings.Join(changed, " ") != "-image: shop/checkout:v2 +image: shop/checkout:v1" {
			t.Errorf("the undo diff to revision 1 is %q, want only the image (not Argo's hash label)", changed)
		}
	}
	// An abort on a failed analysis says why on the page as in the fleet.
	aborted := argoCanary(func(r *argo.Rollout) {
		r.Status.Abort, r.Status.Phase, r.ResourceVersion = true, argo.RolloutPhaseDegraded, "3"
	})
	cl.Apply(cluster.Batch{Objects: aborted[:1], At: at(31)})
	v, _ = cl.ArgoRollout(shop, "checkout", at(31))
	if want := "why metric error-rate = [0.12] (failure: result[0] > 0.05) · 3 failed, 0 errors of 3"; !slices.Contains(v.Header, want) {
		t.Errorf("aborted header %q; want a line %q", v.Header, want)
	}
	// Blue/green: the active and preview ReplicaSets.
	bg := argoCanary(func(r *argo.Rollout) {
		r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "checkout", PreviewService: "checkout-preview"}}
		r.Status.CurrentStepIndex, r.ResourceVersion = nil, "4"
		r.Status.BlueGreen = argo.BlueGreenStatus{ActiveSelector: "7f9", PreviewSelector: "8c1"}
	})
	cl.Apply(cluster.Batch{Objects: bg[:1], At: at(31)})
	v, _ = cl.ArgoRollout(shop, "checkout", at(31))
	if v.StepLine != "active 7f9 · preview 8c1" || v.ActiveRS != "checkout-7f9" || v.PreviewRS != "checkout-8c1" {
		t.Errorf("blue/green: %q active %s preview %s", v.StepLine, v.ActiveRS, v.PreviewRS)
	}
	// Blue/green runs a second set rather than surging: the preview's 5
	// pods of a set of 10.
	if v.Header[1] != "stable web=shop/checkout:v1 · preview web=shop/checkout:v2" {
		t.Errorf("blue/green images %q", v.Header[1])
	}
	if v.Surge != (model.Headroom{Used: 5, Limit: 10}) || v.SurgeLabel != "preview" || v.Unavailable != (model.Headroom{Used: 0, Limit: 2}) {
		t.Errorf("blue/green headroom %s %+v unavailable %+v", v.SurgeLabel, v.Surge, v.Unavailable)
	}
}

// Each state of a Rollout refuses the verbs Argo's plugin would refuse or
// that would change nothing, with the reason, and leaves the others.
func TestArgoRolloutViewRefusesVerbsByState(t *testing.T) {
	stateless := []kind.Verb{kind.SetImage, kind.Restart, kind.Undo, kind.Scale}
	for _, c := range []struct {
		name    string
		edit    func(*argo.Rollout)
		refused map[kind.Verb]string // a part of each reason
	}{
		{"rolling", nil, map[kind.Verb]string{kind.Retry: "is not aborted", kind.Resume: "is not paused"}},
		{"paused at a step", func(r *argo.Rollout) {
			r.Status.ControllerPause = true
			r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonCanaryPauseStep, StartTime: metav1.Time{Time: at(18)}}}
		}, map[kind.Verb]string{kind.Retry: "is not aborted", kind.Resume: "promote it to move on"}},
		{"paused by hand", func(r *argo.Rollout) { r.Spec.Paused = true },
			map[kind.Verb]string{kind.Retry: "is not aborted", kind.Pause: "already paused"}},
		{"aborted", func(r *argo.Rollout) { r.Status.Abort = true },
			map[kind.Verb]string{kind.Promote: "is aborted", kind.Abort: "already aborted", kind.Resume: "is not paused"}},
		{"promoting fully", func(r *argo.Rollout) { r.Status.PromoteFull = true },
			map[kind.Verb]string{kind.PromoteFull: "already being promoted fully", kind.Retry: "is not aborted", kind.Resume: "is not paused"}},
		{"fully promoted", func(r *argo.Rollout) {
			r.Status.StableRS, r.Status.CurrentStepIndex, r.Status.UpdatedReplicas = "8c1", ptr32(6), 10
		}, map[kind.Verb]string{kind.Promote: "nothing to promote", kind.PromoteFull: "already fully promoted", kind.Abort: "nothing to abort", kind.Retry: "is not aborted",
			kind.Resume: "is not paused"}},
	} {
		cl := cluster.NewCluster()
		cl.Apply(cluster.Batch{Objects: argoCanary(c.edit), At: at(30), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
		v, _ := cl.ArgoRollout(shop, "checkout", at(30))
		for verb, want := range c.refused {
			if got := v.Refused[verb]; !strings.Contains(got, want) || strings.HasSuffix(got, argo.ErrNoChange.Error()) {
				t.Errorf("%s: %s refused with %q, want %q", c.name, verb, got, want)
			}
		}
		for verb, why := range v.Refused {
			if _, ok := c.refused[verb]; !ok {
				t.Errorf("%s: %s refused (%q), should work", c.name, verb, why)
			}
		}
		for _, verb := range stateless {
			if why, ok := v.Refused[verb]; ok {
				t.Errorf("%s: %s refused (%q): its command reads no state", c.name, verb, why)
			}
		}
	}
}

// The current step says how it stands: a timed pause its time left, a
// pause for a promote how long it has waited; the others say nothing.
func TestArgoStepNotes(t *testing.T) {
	for _, c := range []struct {
		name string
		step int32
		want string
		// Paused by hand, the timed pause does not run out: Argo ends no
		// step while spec.paused lasts.
		byHand bool
		header string
	}{
		{"timed pause", 3, "5m0s left", false, "paused (CanaryPauseStep) · resumes in 5m0s"},
		{"pause for a promote", 1, "waiting 5m0s for a promote", false, "paused (CanaryPauseStep) for 5m0s · waits for a promote"},
		{"timed pause held by hand", 3, "", true, "paused by hand (spec.paused) · waits for a resume or a promote"},
	} {
		cl := cluster.NewCluster()
		cl.Apply(cluster.Batch{Objects: argoCanary(func(r *argo.Rollout) {
			r.Status.CurrentStepIndex, r.Status.ControllerPause = ptr32(c.step), true
			r.Status.PauseConditions = []argo.PauseCondition{{Reason: argo.PauseReasonCanaryPauseStep, StartTime: metav1.Time{Time: at(25)}}}
			r.Spec.Paused = c.byHand
		}), At: at(30), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
		v, _ := cl.ArgoRollout(shop, "checkout", at(30))
		for i, s := range v.Steps {
			if want := map[bool]string{true: c.want}[i == int(c.step)]; s.Note != want {
				t.Errorf("%s: step %d note %q, want %q", c.name, i+1, s.Note, want)
			}
		}
		if !slices.Contains(v.Header, c.header) {
			t.Errorf("%s: header %q lacks %q", c.name, v.Header, c.header)
		}
	}
}

// The Rollout's status names its runs now (a step's, the background's,
// blue/green's pre- and post-promotion): those are current, the others
// history.
func TestArgoAnalysisRunsNamedInStatusAreCurrent(t *testing.T) {
	objs := argoCanary(func(r *argo.Rollout) {
		r.Status.Canary.CurrentStepAnalysisRunStatus = &argo.RolloutAnalysisRunStatus{Name: "checkout-8c1-2-4", Status: argo.AnalysisPhaseFailed}
	})
	objs = append(objs, failedRun(objs[0].(*argo.Rollout)))
	cl := cluster.NewCluster()
	cl.Apply(cluster.Batch{Objects: objs, At: at(30), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
	v, _ := cl.ArgoRollout(shop, "checkout", at(30))
	if len(v.Analysis) != 1 || !v.Analysis[0].Current {
		t.Errorf("the step's run is not current: %+v", v.Analysis)
	}
}

// Fully promoted, the step line counts the pods on the revision rolled to —
// now the stable set — rather than saying none run it.
func TestArgoStepLineOfAFullyPromotedRollout(t *testing.T) {
	objs := argoCanary(func(r *argo.Rollout) {
		r.Status.StableRS, r.Status.CurrentStepIndex, r.Status.Phase = "8c1", ptr32(6), argo.RolloutPhaseHealthy
	})
	cl := cluster.NewCluster()
	cl.Apply(cluster.Batch{Objects: objs, At: at(30)})
	v, ok := cl.ArgoRollout(shop, "checkout", at(30))
	if !ok || v.StepLine != "6 steps done · actual 5/10 pods" {
		t.Errorf("step line %q", v.StepLine)
	}
}
