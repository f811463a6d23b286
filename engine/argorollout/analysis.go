package argorollout

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/control"
	"rollscope/model/argo"
)

// The canary's analysis, as Argo's rollout/analysis.go runs it: a step's
// run created when the step is reached (named
// <rollout>-<hash>-<revision>-<step>), a background run from its
// starting step, both terminated when the update is aborted, promoted
// or rolled back; a Failed or Error run aborts the update, an
// Inconclusive one pauses it.

// analysisRuns are the Rollout's runs (by controller reference), sorted
// into the current step and background ones (named in its status) and
// the others.
type analysisRuns struct {
	step, background *argo.AnalysisRun
	others           []*argo.AnalysisRun
}

func (rc *rolloutContext) loadAnalysisRuns() {
	ix := rc.c.env.Listers.AnalysisRuns
	rc.runs = analysisRuns{}
	if ix == nil {
		return
	}
	objs, _ := ix.ByIndex(control.IndexByController, string(rc.ro.UID))
	name := func(s *argo.RolloutAnalysisRunStatus) string {
		if s == nil {
			return ""
		}
		return s.Name
	}
	var all []*argo.AnalysisRun
	for _, o := range objs {
		if ar, ok := o.(*argo.AnalysisRun); ok {
			all = append(all, ar)
		}
	}
	slices.SortFunc(all, func(a, b *argo.AnalysisRun) int { return strings.Compare(a.Name, b.Name) })
	for _, ar := range all {
		switch ar.Name {
		case name(rc.ro.Status.Canary.CurrentStepAnalysisRunStatus):
			rc.runs.step = ar
		case name(rc.ro.Status.Canary.CurrentBackgroundAnalysisRunStatus):
			rc.runs.background = ar
		default:
			rc.runs.others = append(rc.runs.others, ar)
		}
	}
}

// reconcileAnalysisRuns is Argo's, for the canary.
func (rc *rolloutContext) reconcileAnalysisRuns(ctx context.Context) error {
	ro := rc.ro
	current := analysisRuns{}
	if argo.FullyPromoted(ro) || rc.aborted() || ro.Status.PromoteFull || rc.isFastRollback() || ro.Status.StableRS == "" {
		if err := rc.cancelAnalysisRuns(ctx, rc.runs.step, rc.runs.background); err != nil {
			return err
		}
	} else {
		var err error
		if current.step, err = rc.reconcileStepAnalysisRun(ctx); err != nil {
			return err
		}
		if current.background, err = rc.reconcileBackgroundAnalysisRun(ctx); err != nil {
			return err
		}
	}
	rc.newStatus.Canary.CurrentStepAnalysisRunStatus = runStatus(current.step)
	rc.newStatus.Canary.CurrentBackgroundAnalysisRunStatus = runStatus(current.background)
	var others []*argo.AnalysisRun
	for _, ar := range rc.runs.others {
		if (current.step == nil || ar.Name != current.step.Name) && (current.background == nil || ar.Name != current.background.Name) {
			others = append(others, ar)
		}
	}
	if err := rc.cancelAnalysisRuns(ctx, others...); err != nil {
		return err
	}
	rc.emitAnalysisRunStatusChange(ro.Status.Canary.CurrentStepAnalysisRunStatus, current.step, argo.RunForStep)
	rc.emitAnalysisRunStatusChange(ro.Status.Canary.CurrentBackgroundAnalysisRunStatus, current.background, argo.RunForBackground)
	rc.runs.step, rc.runs.background = current.step, current.background
	return nil
}

func runStatus(ar *argo.AnalysisRun) *argo.RolloutAnalysisRunStatus {
	if ar == nil {
		return nil
	}
	return &argo.RolloutAnalysisRunStatus{Name: ar.Name, Status: ar.Status.Phase, Message: ar.Status.Message}
}

func (rc *rolloutContext) reconcileStepAnalysisRun(ctx context.Context) (*argo.AnalysisRun, error) {
	ro := rc.ro
	step, idx := argo.CurrentStep(ro)
	cur := rc.runs.step
	if len(ro.Status.PauseConditions) > 0 || ro.Status.Abort {
		return cur, nil
	}
	fromPreviousStep := step != nil && step.Analysis != nil && cur != nil && idx != nil && cur.Labels[argo.StepIndexLabel] != strconv.Itoa(int(*idx))
	if step == nil || step.Analysis == nil || len(step.Analysis.Templates) == 0 || idx == nil || fromPreviousStep {
		return nil, rc.cancelAnalysisRuns(ctx, cur)
	}
	if rc.needsNewAnalysisRun(cur) {
		labels := map[string]string{argo.RolloutTypeLabel: argo.RunForStep, argo.StepIndexLabel: strconv.Itoa(int(*idx))}
		return rc.createAnalysisRun(ctx, step.Analysis, strconv.Itoa(int(*idx)), labels)
	}
	rc.judge(cur, "Step-based analysis phase error/failed")
	return cur, nil
}

func (rc *rolloutContext) reconcileBackgroundAnalysisRun(ctx context.Context) (*argo.AnalysisRun, error) {
	ro := rc.ro
	bg := ro.Spec.Strategy.Canary.Analysis
	cur := rc.runs.background
	if bg == nil || len(bg.Templates) == 0 {
		return nil, rc.cancelAnalysisRuns(ctx, cur)
	}
	_, idx := argo.CurrentStep(ro)
	beforeStart := bg.StartingStep != nil && (idx == nil || *idx < *bg.StartingStep)
	if argo.FullyPromoted(ro) || ro.Status.StableRS == "" || ro.Status.CurrentPodHash == "" || beforeStart {
		return nil, nil
	}
	if pauseCondition(ro, argo.PauseReasonInconclusiveAnalysis) != nil {
		return cur, nil
	}
	if rc.needsNewAnalysisRun(cur) {
		return rc.createAnalysisRun(ctx, bg, "", map[string]string{argo.RolloutTypeLabel: argo.RunForBackground})
	}
	rc.judge(cur, "Background analysis phase error/failed")
	return cur, nil
}

// judge is what a run's verdict does to the update: Inconclusive pauses
// it, Failed or Error aborts it with the run's message.
func (rc *rolloutContext) judge(ar *argo.AnalysisRun, abort string) {
	switch ar.Status.Phase {
	case argo.AnalysisPhaseInconclusive:
		rc.addPause = append(rc.addPause, argo.PauseReasonInconclusiveAnalysis)
	case argo.AnalysisPhaseError, argo.AnalysisPhaseFailed:
		if ar.Status.Message != "" {
			abort += ": " + ar.Status.Message
		}
		rc.addAbort = abort
	}
}

// needsNewAnalysisRun is Argo's: none yet; after an inconclusive run's
// pause was lifted; or after an abort.
func (rc *rolloutContext) needsNewAnalysisRun(cur *argo.AnalysisRun) bool {
	ro := rc.ro
	if cur == nil {
		return true
	}
	if ro.Status.ControllerPause && pauseCondition(ro, argo.PauseReasonCanaryPauseStep) == nil && pauseCondition(ro, argo.PauseReasonBlueGreenPause) == nil {
		return cur.Status.Phase == argo.AnalysisPhaseInconclusive
	}
	return ro.Status.AbortedAt != nil
}

// emitAnalysisRunStatusChange is Argo's event on the Rollout when a
// current run's phase changes.
func (rc *rolloutContext) emitAnalysisRunStatusChange(prev *argo.RolloutAnalysisRunStatus, ar *argo.AnalysisRun, runType string) {
	if ar == nil || ar.Status.Phase == "" || prev != nil && (prev.Name != ar.Name || prev.Status == ar.Status.Phase) {
		return
	}
	was := "NoPreviousStatus"
	if prev != nil {
		was = string(prev.Status)
	}
	t := corev1.EventTypeNormal
	if ar.Status.Phase == argo.AnalysisPhaseFailed || ar.Status.Phase == argo.AnalysisPhaseError {
		t = corev1.EventTypeWarning
	}
	rc.c.env.Events.Eventf(rc.ro, t, "AnalysisRun"+string(ar.Status.Phase), "%s Analysis Run '%s' Status New: '%s' Previous: '%s'", runType, ar.Name, ar.Status.Phase, was)
}

// cancelAnalysisRuns asks each unfinished run to terminate, as Argo does.
func (rc *rolloutContext) cancelAnalysisRuns(ctx context.Context, runs ...*argo.AnalysisRun) error {
	for _, ar := range runs {
		if ar == nil || ar.Spec.Terminate || ar.Status.Phase.Completed() {
			continue
		}
		_, err := rc.c.env.Dynamic.Resource(argo.AnalysisRuns).Namespace(ar.Namespace).Patch(ctx, ar.Name, types.MergePatchType, []byte(`{"spec":{"terminate":true}}`), metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// createAnalysisRun is Argo's: the templates flattened into one run with
// the analysis's arguments merged over theirs, named after the Rollout,
// the new pod hash, its revision and infix, with a collision counter.
func (rc *rolloutContext) createAnalysisRun(ctx context.Context, ra *argo.RolloutAnalysis, infix string, labels map[string]string) (*argo.AnalysisRun, error) {
	ro := rc.ro
	if rc.newRS == nil || rc.newRS.Labels[argo.PodTemplateHashLabel] == "" {
		return nil, fmt.Errorf("rollout %s: the latest ReplicaSet has no pod hash", rc.key)
	}
	podHash := rc.newRS.Labels[argo.PodTemplateHashLabel]
	rev := ro.Annotations[argo.RevisionAnnotation]
	name := ro.Name + "-" + podHash + "-" + rev
	if infix != "" {
		name += "-" + infix
	}
	labels[argo.PodTemplateHashLabel] = podHash
	for k, v := range ro.Spec.Selector.MatchLabels {
		labels[k] = v
	}
	run := &argo.AnalysisRun{
		TypeMeta: metav1.TypeMeta{APIVersion: argo.GroupVersion.String(), Kind: "AnalysisRun"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ro.Namespace, Labels: labels,
			Annotations:     map[string]string{argo.RevisionAnnotation: rev},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ro, controllerKind)}},
	}
	var templateArgs []argo.Argument
	for _, ref := range ra.Templates {
		u, err := rc.c.env.Dynamic.Resource(argo.AnalysisTemplates).Namespace(ro.Namespace).Get(ctx, ref.TemplateName, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		var t argo.AnalysisTemplate
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &t); err != nil {
			return nil, err
		}
		run.Spec.Metrics = append(run.Spec.Metrics, t.Spec.Metrics...)
		templateArgs = append(templateArgs, t.Spec.Args...)
	}
	run.Spec.Args = rc.mergeArgs(ra.Args, templateArgs)
	return rc.createWithCollisionCounter(ctx, run)
}

// mergeArgs is Argo's MergeArgs over BuildArgumentsForRolloutAnalysisRun:
// the templates' arguments, each given the analysis's value of the same
// name (a pod-template hash read from the stable or latest ReplicaSet).
func (rc *rolloutContext) mergeArgs(incoming []argo.AnalysisRunArgument, templateArgs []argo.Argument) []argo.AnalysisRunArgument {
	out := make([]argo.AnalysisRunArgument, 0, len(templateArgs))
	for _, ta := range templateArgs {
		a := argo.AnalysisRunArgument{Name: ta.Name}
		if ta.Value != nil {
			a.Value = *ta.Value
		}
		for _, in := range incoming {
			if in.Name != ta.Name {
				continue
			}
			a.Value = in.Value
			if vf := in.ValueFrom; vf != nil && vf.PodTemplateHashValue != nil {
				rs := rc.newRS
				if *vf.PodTemplateHashValue == "Stable" {
					rs = rc.stableRS
				}
				if rs != nil {
					a.Value = rs.Labels[argo.PodTemplateHashLabel]
				}
			}
		}
		out = append(out, a)
	}
	return out
}

func (rc *rolloutContext) createWithCollisionCounter(ctx context.Context, run *argo.AnalysisRun) (*argo.AnalysisRun, error) {
	runs := rc.c.env.Dynamic.Resource(argo.AnalysisRuns).Namespace(run.Namespace)
	base := run.Name
	for n := 1; ; n++ {
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(run)
		if err != nil {
			return nil, err
		}
		delete(obj, "status")
		created, err := runs.Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
		if err == nil {
			return argo.AnalysisRunOf(created)
		}
		if !apierrors.IsAlreadyExists(err) {
			return nil, err
		}
		u, err := runs.Get(ctx, run.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		existing, err := argo.AnalysisRunOf(u)
		if err != nil {
			return nil, err
		}
		a, _ := json.Marshal(run.Spec)
		b, _ := json.Marshal(existing.Spec)
		ref := metav1.GetControllerOf(existing)
		if !existing.Status.Phase.Completed() && string(a) == string(b) && ref != nil && ref.UID == rc.ro.UID {
			return existing, nil
		}
		run.Name = fmt.Sprintf("%s.%d", base, n)
	}
}
