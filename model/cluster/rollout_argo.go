package cluster

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// An Argo Rollout: its view (strategy and step, pause, images, steps,
// analysis, ReplicaSets) and its fleet row in Argo's own states. Its
// ReplicaSets and pods are linked to it as a Deployment's are, by their
// controller's UID; its AnalysisRuns by theirs.
var _ = addKind(kind.Rollout, workloadKind{row: (*Cluster).argoRolloutFleet, summary: argoRolloutSummary})

// ArgoRolloutView is everything a Rollout's page shows.
type ArgoRolloutView struct {
	Namespace, Name string
	// Strategy is "canary" or "blueGreen".
	Strategy string
	// Phase and Message are `kubectl argo rollouts`' (Healthy, Progressing,
	// Paused, Degraded); Status its status line, Done once Healthy.
	Phase   argo.RolloutPhase
	Message string
	Status  string
	Done    bool
	// Desired is spec.replicas; the others status counts.
	Desired, Current, Updated, Ready, Available int32
	Revision                                    int64
	StableHash, CurrentHash                     string
	// StepLine is the header's step: "step 3/6 · setWeight 50 · actual
	// 5/10 pods", or blue/green's "active 7f9 · preview 8c1".
	StepLine string
	// Step is the current step's index (-1: no steps, or all done).
	Step  int
	Steps []ArgoStep
	// Surge is the pods over spec.replicas against maxSurge, Unavailable
	// spec.replicas' pods not available against maxUnavailable, each as
	// Argo's controller resolves them; for blue/green, Surge is the
	// preview set's pods against a whole set (SurgeLabel "preview"), as
	// Argo runs a second set rather than surging.
	Surge, Unavailable model.Headroom
	SurgeLabel         string
	// Weight is the canary's setWeight now; CanaryPods the canary's
	// available pods of Desired.
	Weight     int32
	CanaryPods int32
	// ActiveHash and PreviewHash are blue/green's services' selectors;
	// ActiveRS and PreviewRS the ReplicaSets they select.
	ActiveHash, PreviewHash string
	ActiveRS, PreviewRS     string
	// Pause: the pause condition's reason and since when; Left the time
	// left of a timed pause (Timed), else it waits for a promote.
	Paused      bool
	PauseReason string
	PausedSince time.Time
	Timed       bool
	Left        time.Duration
	Aborted     bool
	// StableImages and CanaryImages are the containers' images of the
	// stable and the current ReplicaSet ("name=image"); WorkloadRef the
	// Deployment whose template the Rollout runs ("" when its own).
	StableImages, CanaryImages []string
	WorkloadRef                string
	Analysis                   []AnalysisRunView
	ReplicaSets                []ReplicaSetRow
	// History is the revisions of the ReplicaSets'
	// rollout.argoproj.io/revision, oldest first, each with the diff an
	// undo to it would make to the template the Rollout runs now.
	History []WorkloadRevision
	// NotShown names what the Rollout has that rollscope does not show
	// (a traffic router, experiment or plugin steps).
	NotShown []string
	// Why is what the Rollout's state rests on, as its fleet row says it
	// (a failed analysis's metric and value, an abort, a deadline, a
	// pause); "" while it rolls or is complete: the pods' blocker is the
	// fleet row's.
	Why string
	// Header is the page's header lines.
	Header []string
	// Refused says, for each verb the Rollout's state refuses, why (Argo's
	// plugin would refuse or change nothing): the page disables its key
	// with it. A verb that is not here can work now.
	Refused map[kind.Verb]string
}

// ArgoStep is one canary step as the steps list shows it.
type ArgoStep struct {
	Text string
	// Current is the step the Rollout is at; Done the steps before it.
	Current, Done bool
	// NotShown: an experiment or plugin step, named but not driven.
	NotShown bool
	// Note is how the current step stands: a timed pause's time left
	// ("4m12s left"), how long a pause has waited for a promote.
	Note string
}

// ArgoRollout is the view of Rollout namespace/name at now.
func (c *Cluster) ArgoRollout(namespace, name string, now time.Time) (ArgoRolloutView, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	ro, ok := heldAs[*argo.Rollout](c.workloads, kind.Rollout, objectKey(namespace, name))
	if !ok {
		return ArgoRolloutView{}, false
	}
	return c.argoRolloutView(ro, now), true
}

func (c *Cluster) argoRolloutView(ro *argo.Rollout, now time.Time) ArgoRolloutView {
	w, _ := kind.Of(ro)
	st := ro.Status
	desired, _ := w.Replicas()
	v := ArgoRolloutView{Namespace: ro.Namespace, Name: ro.Name, Desired: desired, Current: st.Replicas, Updated: st.UpdatedReplicas,
		Ready: st.ReadyReplicas, Available: st.AvailableReplicas, StableHash: st.StableRS, CurrentHash: st.CurrentPodHash,
		Step: -1, Aborted: st.Abort, Revision: argoRevision(ro.Annotations)}
	v.Phase, v.Message = kind.RolloutPhase(ro)
	msg, done, err := w.RolloutStatus()
	v.Status, v.Done = statusLine(msg, err), done
	if ref := ro.Spec.WorkloadRef; ref != nil {
		v.WorkloadRef = ref.Kind + "/" + ref.Name
	}
	rss := c.ownedReplicaSets(&appsv1.Deployment{ObjectMeta: ro.ObjectMeta})
	for _, rs := range rss {
		row := c.replicaSetRow(rs, nil, false)
		row.Hash, row.Revision = rs.Labels[argo.PodTemplateHashLabel], argoRevision(rs.Annotations)
		switch row.Hash {
		case st.StableRS:
			row.Role = RoleStable
			v.StableImages = containerImages(&rs.Spec.Template)
			if st.StableRS == st.CurrentPodHash {
				// Fully promoted: the pods on the revision rolled to are
				// the stable set's, not none.
				v.CanaryPods = rs.Status.AvailableReplicas
			}
		case st.CurrentPodHash:
			row.Role = RoleNew
			v.CanaryImages = containerImages(&rs.Spec.Template)
			v.CanaryPods = rs.Status.AvailableReplicas
		}
		switch row.Hash {
		case st.BlueGreen.ActiveSelector:
			v.ActiveRS = rs.Name
		case st.BlueGreen.PreviewSelector:
			v.PreviewRS = rs.Name
		}
		v.ReplicaSets = append(v.ReplicaSets, row)
	}
	v.History = argoHistory(rss, st.CurrentPodHash, &ro.Spec.Template)
	slices.SortFunc(v.ReplicaSets, func(a, b ReplicaSetRow) int {
		return cmp.Or(cmp.Compare(b.Revision, a.Revision), b.Created.Compare(a.Created), strings.Compare(a.Name, b.Name))
	})
	if v.CanaryImages == nil && st.CurrentPodHash == st.StableRS {
		v.CanaryImages = v.StableImages
	}
	if v.StableImages == nil && v.WorkloadRef == "" {
		v.StableImages = containerImages(&ro.Spec.Template)
	}
	if p, ok := argoPause(ro, now); ok {
		v.Paused, v.PauseReason, v.PausedSince, v.Timed, v.Left = true, p.reason, p.since, p.timed, p.left
	}
	switch {
	case ro.Spec.Strategy.BlueGreen != nil:
		v.Strategy = "blueGreen"
		v.ActiveHash, v.PreviewHash = st.BlueGreen.ActiveSelector, st.BlueGreen.PreviewSelector
		v.StepLine = "active " + orNone(v.ActiveHash) + " · preview " + orNone(v.PreviewHash)
	case ro.Spec.Strategy.Canary != nil:
		v.Strategy = "canary"
		c.canarySteps(&v, ro)
	}
	if v.Step >= 0 && v.Paused && v.PauseReason == string(argo.PauseReasonCanaryPauseStep) {
		switch {
		case v.Timed:
			v.Steps[v.Step].Note = kubectlAge(v.Left) + " left"
		case !v.PausedSince.IsZero():
			v.Steps[v.Step].Note = "waiting " + kubectlAge(now.Sub(v.PausedSince)) + " for a promote"
		}
	}
	v.SurgeLabel, v.Surge = "surge", model.Headroom{Used: max(st.Replicas-desired, 0), Limit: argo.MaxSurge(ro)}
	if v.Strategy == "blueGreen" {
		v.SurgeLabel, v.Surge = "preview", model.Headroom{Limit: desired}
		for _, rs := range v.ReplicaSets {
			if rs.Hash == v.PreviewHash && v.PreviewHash != v.ActiveHash {
				v.Surge.Used = rs.Desired
			}
		}
	}
	v.Unavailable = model.Headroom{Used: max(desired-st.AvailableReplicas, 0), Limit: argo.MaxUnavailable(ro)}
	v.NotShown = argoNotShown(ro)
	current := map[string]bool{}
	for _, rs := range []*argo.RolloutAnalysisRunStatus{st.Canary.CurrentStepAnalysisRunStatus, st.Canary.CurrentBackgroundAnalysisRunStatus,
		st.BlueGreen.PrePromotionAnalysisRunStatus, st.BlueGreen.PostPromotionAnalysisRunStatus} {
		if rs != nil && rs.Name != "" {
			current[rs.Name] = true
		}
	}
	for _, key := range c.workloads.analysisRunsByOwner.sorted(ro.UID) {
		if run := c.workloads.analysisRuns[key]; run != nil && run.Namespace == ro.Namespace {
			a := analysisRunView(run)
			a.Current = current[run.Name]
			v.Analysis = append(v.Analysis, a)
		}
	}
	slices.SortFunc(v.Analysis, func(a, b AnalysisRunView) int {
		return cmp.Or(b.Started.Compare(a.Started), strings.Compare(a.Name, b.Name))
	})
	_, _, v.Why = argoState(&v, now)
	v.Header = argoHeader(&v, now)
	v.Refused = argoRefused(ro)
	return v
}

// argoRefused is why each of the kind's verbs cannot work on ro in its
// state now, from the rules the sender checks again when it sends.
func argoRefused(ro *argo.Rollout) map[kind.Verb]string {
	out := map[kind.Verb]string{}
	e, _ := kind.Rollout.Entry()
	for _, verb := range e.Verbs {
		if err := action.ArgoRefusal(verb, ro); err != nil {
			out[verb] = strings.TrimSuffix(err.Error(), ": "+argo.ErrNoChange.Error())
		}
	}
	return out
}

// argoHistory is the Rollout's revisions from its ReplicaSets, oldest
// first: the current one is the ReplicaSet of currentHash, and each diff
// goes from its template (own, the Rollout's when it has no ReplicaSet yet)
// to the revision's, as every undo diff reads (UndoDiffLegend). Argo's
// hash label is left out of both, as the Deployment's is.
func argoHistory(rss []*appsv1.ReplicaSet, currentHash string, own *corev1.PodTemplateSpec) []WorkloadRevision {
	withoutHash := func(t *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
		c := t.DeepCopy()
		delete(c.Labels, argo.PodTemplateHashLabel)
		return c
	}
	now := withoutHash(own)
	for _, rs := range rss {
		if rs.Labels[argo.PodTemplateHashLabel] == currentHash && currentHash != "" {
			now = withoutHash(&rs.Spec.Template)
		}
	}
	var out []WorkloadRevision
	for _, rs := range rss {
		rev := argoRevision(rs.Annotations)
		if rev == 0 {
			continue
		}
		t := withoutHash(&rs.Spec.Template)
		out = append(out, WorkloadRevision{Revision: rev, Name: rs.Name, Images: containerImages(t),
			Current: rs.Labels[argo.PodTemplateHashLabel] == currentHash, Diff: TemplateDiff(now, t)})
	}
	slices.SortFunc(out, func(a, b WorkloadRevision) int { return cmp.Compare(a.Revision, b.Revision) })
	return out
}

// canarySteps fills the steps list, the weight and the step line.
func (c *Cluster) canarySteps(v *ArgoRolloutView, ro *argo.Rollout) {
	steps := ro.Spec.Strategy.Canary.Steps
	at := len(steps)
	if i := ro.Status.CurrentStepIndex; i != nil {
		at = int(*i)
	}
	v.Weight = 100
	if at < len(steps) {
		v.Step, v.Weight = at, 0
		for _, s := range steps[:at+1] {
			if s.SetWeight != nil {
				v.Weight = *s.SetWeight
			}
		}
	}
	for i, s := range steps {
		text, notShown := argoStepText(s)
		v.Steps = append(v.Steps, ArgoStep{Text: text, Current: i == at, Done: i < at, NotShown: notShown})
	}
	if v.Step < 0 {
		v.StepLine = fmt.Sprintf("%s done · actual %d/%d pods", model.Plural(len(steps), "step"), v.CanaryPods, v.Desired)
		return
	}
	v.StepLine = fmt.Sprintf("step %d/%d · %s · actual %d/%d pods", at+1, len(steps), v.Steps[at].Text, v.CanaryPods, v.Desired)
}

// argoStepText is a step as Argo's plugin names it: "setWeight 50",
// "pause 10m", "pause (until promoted)", "analysis error-rate".
func argoStepText(s argo.CanaryStep) (string, bool) {
	switch {
	case s.SetWeight != nil:
		return "setWeight " + strconv.Itoa(int(*s.SetWeight)), false
	case s.Pause != nil && s.Pause.Duration == nil:
		return "pause (until promoted)", false
	case s.Pause != nil:
		return "pause " + s.Pause.Duration.String(), false
	case s.Analysis != nil:
		var names []string
		for _, t := range s.Analysis.Templates {
			names = append(names, t.TemplateName)
		}
		return "analysis " + strings.Join(names, ", "), false
	case s.SetCanaryScale != nil:
		switch cs := s.SetCanaryScale; {
		case cs.Replicas != nil:
			return "setCanaryScale " + model.Plural(*cs.Replicas, "pod"), false
		case cs.Weight != nil:
			return fmt.Sprintf("setCanaryScale %d%%", *cs.Weight), false
		}
		return "setCanaryScale matchTrafficWeight", false
	case len(s.Experiment) > 0:
		return experimentText(s.Experiment), true
	case len(s.Plugin) > 0:
		return "plugin step (not shown by rollscope)", true
	case len(s.SetHeaderRoute) > 0:
		return "setHeaderRoute (not shown by rollscope)", true
	case len(s.SetMirrorRoute) > 0:
		return "setMirrorRoute (not shown by rollscope)", true
	}
	return "(empty step)", false
}

// experimentText is an experiment step with its templates and duration,
// which rollscope shows but does not drive (it reads no Experiment).
func experimentText(raw []byte) string {
	var e struct {
		Duration  string `json:"duration"`
		Templates []struct {
			Name    string `json:"name"`
			SpecRef string `json:"specRef"`
		} `json:"templates"`
		Analyses []struct {
			TemplateName string `json:"templateName"`
		} `json:"analyses"`
	}
	text := "experiment"
	if json.Unmarshal(raw, &e) == nil {
		var parts []string
		for _, t := range e.Templates {
			parts = append(parts, t.Name+"="+t.SpecRef)
		}
		if len(parts) > 0 {
			text += " " + strings.Join(parts, ", ")
		}
		if e.Duration != "" {
			text += " for " + e.Duration
		}
		var analyses []string
		for _, a := range e.Analyses {
			analyses = append(analyses, a.TemplateName)
		}
		if len(analyses) > 0 {
			text += " · analysis " + strings.Join(analyses, ", ")
		}
	}
	return text + " (shown, not driven by rollscope)"
}

// argoNotShown names what rollscope does not show of the Rollout.
func argoNotShown(ro *argo.Rollout) []string {
	var out []string
	if c := ro.Spec.Strategy.Canary; c != nil {
		if len(c.TrafficRouting) > 0 {
			out = append(out, "traffic router (trafficRouting) not shown by rollscope: weights are the pods', not the router's")
		}
		for i, s := range c.Steps {
			if text, notShown := argoStepText(s); notShown {
				out = append(out, fmt.Sprintf("step %d: %s", i+1, text))
			}
		}
	}
	return out
}

// argoManualPause is the reason of a pause by hand (spec.paused), as Argo's
// status message says it.
const argoManualPause = "manually paused"

// argoPauseState is a Rollout's pause as the fleet and the page say it.
type argoPauseState struct {
	reason string
	since  time.Time
	timed  bool
	left   time.Duration
}

// argoPause is the Rollout's pause: spec.paused, or its first pause
// condition with how long a timed step or auto-promotion has left.
func argoPause(ro *argo.Rollout, now time.Time) (argoPauseState, bool) {
	st := ro.Status
	if ro.Spec.Paused {
		// A pause by hand holds every timer: Argo's controller neither
		// completes a timed pause step nor auto-promotes while spec.paused
		// lasts, however long ago either was due.
		return argoPauseState{reason: argoManualPause}, true
	}
	if len(st.PauseConditions) == 0 {
		return argoPauseState{}, false
	}
	pc := st.PauseConditions[0]
	p := argoPauseState{reason: string(pc.Reason), since: pc.StartTime.Time}
	var wait time.Duration
	switch pc.Reason {
	case argo.PauseReasonCanaryPauseStep:
		if c := ro.Spec.Strategy.Canary; c != nil && st.CurrentStepIndex != nil && int(*st.CurrentStepIndex) < len(c.Steps) {
			if s := c.Steps[*st.CurrentStepIndex].Pause; s != nil && s.Duration != nil {
				wait = time.Duration(kind.PauseSeconds(s)) * time.Second
				p.timed = true
			}
		}
	case argo.PauseReasonBlueGreenPause:
		if bg := ro.Spec.Strategy.BlueGreen; bg != nil && bg.AutoPromotionSeconds > 0 {
			wait, p.timed = time.Duration(bg.AutoPromotionSeconds)*time.Second, true
		}
	}
	if p.timed {
		p.left = max(p.since.Add(wait).Sub(now), 0)
	}
	return p, true
}

// argoHeader is the page's header lines: strategy and step, the pause,
// the images, and what is not shown (the status line is Status).
func argoHeader(v *ArgoRolloutView, now time.Time) []string {
	out := []string{v.Strategy + " · " + v.StepLine}
	switch {
	case v.Paused && v.PauseReason == argoManualPause:
		out = append(out, "paused by hand (spec.paused) · waits for a resume or a promote")
	case v.Paused && v.Timed:
		out = append(out, fmt.Sprintf("paused (%s) · resumes in %s", v.PauseReason, kubectlAge(v.Left)))
	case v.Paused && !v.PausedSince.IsZero():
		out = append(out, fmt.Sprintf("paused (%s) for %s · waits for a promote", v.PauseReason, kubectlAge(now.Sub(v.PausedSince))))
	case v.Paused:
		out = append(out, "paused ("+v.PauseReason+")")
	}
	images := "stable " + orNone(strings.Join(v.StableImages, ", "))
	if !slices.Equal(v.StableImages, v.CanaryImages) {
		// Blue/green's new set is its preview, as Argo names it.
		newSet := " · canary "
		if v.Strategy == "blueGreen" {
			newSet = " · preview "
		}
		images += newSet + orNone(strings.Join(v.CanaryImages, ", "))
	}
	if v.WorkloadRef != "" {
		images += " · template of " + v.WorkloadRef
	}
	out = append(out, images)
	if v.Why != "" && !v.Paused { // a pause's line says it already
		out = append(out, "why "+v.Why)
	}
	return append(out, v.NotShown...)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// argoRevision is a Rollout's or its ReplicaSet's revision annotation.
func argoRevision(annotations map[string]string) int64 {
	n, _ := strconv.ParseInt(annotations[argo.RevisionAnnotation], 10, 64)
	return n
}

// The fleet's words for a Rollout's states, in the urgency order: failed
// ones (degraded, aborted, analysis failed), one waiting for a promote,
// a timed pause, then rolling and complete as for every kind.
const (
	wordDegraded          = "degraded"
	wordAborted           = "aborted"
	wordAnalysisFailed    = "analysis failed"
	wordAwaitingPromotion = "awaiting promotion"
)

// argoRolloutFleet is the Rollout's fleet row.
func (c *Cluster) argoRolloutFleet(k fleetKey, w kind.Workload, now time.Time) (fleetEntry, bool) {
	ro := w.Object().(*argo.Rollout)
	v := c.argoRolloutView(ro, now)
	r := workloadRow(w)
	if len(r.Images) == 0 {
		r.Images = v.CanaryImages
	}
	r.Desired, r.Updated, r.Available, r.Revision = v.Desired, v.Updated, v.Available, v.Revision
	if !slices.Equal(v.StableImages, v.CanaryImages) {
		r.From = v.StableImages
	}
	for _, rs := range v.ReplicaSets {
		if rs.Role == RoleNew {
			r.Since = later(r.Since, rs.Created)
		}
	}
	r.Changed = c.moved(k, r.Since)
	state, word, why := argoState(&v, now)
	if state != fleetUnset {
		r.State, r.Why = state, why
	}
	uids := make([]types.UID, 0, len(v.ReplicaSets))
	for _, key := range c.replicaSetsByOwner.sorted(ro.UID) {
		if rs := c.replicaSets[key]; rs != nil {
			uids = append(uids, rs.UID)
		}
	}
	e := fleetEntry{}
	c.podWorkload(k, &r, &e, uids, v.Status, v.Done, v.Phase == argo.RolloutPhaseHealthy || v.Paused)
	if word != "" && e.row.State == r.State && r.State != FleetRolling {
		e.row.Word = word
	}
	return e, true
}

// argoState is the state the Rollout's own fields say, in the fleet's
// words, and what it rests on: a failed analysis (its metric and last
// value), an abort, Argo's Degraded (a progress deadline), a pause. A
// Rollout rolling or complete is fleetUnset: its pods say the rest.
func argoState(v *ArgoRolloutView, now time.Time) (state FleetState, word, why string) {
	failedRun := -1
	for i, run := range v.Analysis {
		if run.Phase == argo.AnalysisPhaseFailed || run.Phase == argo.AnalysisPhaseError {
			failedRun = i
			break
		}
		if run.Phase.Completed() {
			break // the newest finished run passed: an older failure is history
		}
	}
	switch {
	case (v.Phase == argo.RolloutPhaseDegraded || v.Aborted) && failedRun >= 0:
		return FleetFailed, wordAnalysisFailed, failedMetric(v.Analysis[failedRun])
	case v.Aborted:
		return FleetFailed, wordAborted, orNone(v.Message)
	case v.Phase == argo.RolloutPhaseDegraded:
		return FleetFailed, wordDegraded, v.Message
	case v.Paused && v.PauseReason == argoManualPause:
		return FleetPaused, FleetPaused.String(), "manually paused (spec.paused) — resume to go on"
	case v.Paused && !v.Timed && v.PausedSince.IsZero():
		return FleetPaused, wordAwaitingPromotion, v.PauseReason + " — promote to go on"
	case v.Paused && !v.Timed:
		return FleetPaused, wordAwaitingPromotion, fmt.Sprintf("waiting %s at %s — promote to go on", kubectlAge(now.Sub(v.PausedSince)), argoAt(v))
	case v.Paused && v.Step >= 0:
		return FleetCanary, fmt.Sprintf("paused %d/%d", v.Step+1, len(v.Steps)), fmt.Sprintf("%s left at %s", kubectlAge(v.Left), argoAt(v))
	case v.Paused:
		return FleetCanary, "paused", fmt.Sprintf("%s left at %s", kubectlAge(v.Left), argoAt(v))
	}
	return fleetUnset, "", ""
}

// argoAt is where the Rollout stands, for the fleet's why: its step, or
// blue/green's preview.
func argoAt(v *ArgoRolloutView) string {
	if v.Step >= 0 {
		return fmt.Sprintf("step %d/%d (%s)", v.Step+1, len(v.Steps), v.Steps[v.Step].Text)
	}
	if v.Strategy == "blueGreen" {
		return "preview " + orNone(v.PreviewHash)
	}
	return v.StepLine
}

func argoRolloutSummary(w kind.Workload) WorkloadSummary {
	ro := w.Object().(*argo.Rollout)
	msg, done, err := w.RolloutStatus()
	desired, _ := w.Replicas()
	return WorkloadSummary{Kind: kind.Rollout, Namespace: ro.Namespace, Name: ro.Name, Desired: desired,
		Updated: ro.Status.UpdatedReplicas, Available: ro.Status.AvailableReplicas, Status: statusLine(msg, err), Done: done}
}
