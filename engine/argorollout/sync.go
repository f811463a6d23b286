package argorollout

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/control"
	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// rolloutContext is one sync of one Rollout, as Argo's rolloutContext: the
// Rollout (a copy), its ReplicaSets sorted out, the status being built and
// the pause reasons to add or remove.
type rolloutContext struct {
	c   *Controller
	key string
	ro  *argo.Rollout

	newRS, stableRS *appsv1.ReplicaSet
	otherRSs        []*appsv1.ReplicaSet // neither new nor stable
	allRSs          []*appsv1.ReplicaSet

	newStatus    argo.RolloutStatus
	addPause     []argo.PauseReason
	removePause  []argo.PauseReason
	clearPause   bool
	removeAbort  bool
	addAbort     string // why the progress deadline aborts the update
	now          metav1.Time
	createdNewRS bool
	runs         analysisRuns
}

// Sync implements control.Controller: it reconciles one Rollout in the
// order Argo's syncHandler and rolloutCanary do.
func (c *Controller) Sync(ctx context.Context, key string) error {
	ix := c.env.Listers.Workloads[kind.Rollout]
	if ix == nil {
		return nil
	}
	obj, exists, err := ix.GetByKey(key)
	if err != nil || !exists {
		return err
	}
	cached, ok := obj.(*argo.Rollout)
	if !ok || cached.DeletionTimestamp != nil || !Runs(cached) {
		return nil
	}
	rc := &rolloutContext{c: c, key: key, ro: cached.DeepCopy(), now: metav1.NewTime(c.env.Clock.Now())}
	rc.newStatus = argo.RolloutStatus{RestartedAt: rc.ro.Status.RestartedAt}
	rc.sortReplicaSets()
	rc.loadAnalysisRuns()
	// Argo's reconcile: a condition written ends the sync (the change
	// brings the next one); a scaling event only resizes.
	if patched, err := rc.checkPausedConditions(ctx); err != nil || patched {
		return err
	}
	if err := rc.getAllReplicaSetsAndSyncRevision(ctx); err != nil {
		return err
	}
	if rc.isScalingEvent() {
		return rc.syncReplicasOnly(ctx)
	}
	if rc.blueGreen() != nil {
		return rc.rolloutBlueGreen(ctx)
	}
	return rc.rolloutCanary(ctx)
}

// Runs reports whether the controller runs r: a basic canary (no traffic
// router, no workloadRef, services, analysis or experiments, model/argo's
// Unmodelled) with a selector.
func Runs(r *argo.Rollout) bool {
	path, _ := argo.Unmodelled(r)
	return path == "" && r.Spec.Selector != nil
}

// sortReplicaSets finds the Rollout's ReplicaSets (by their controller
// reference) and sorts them into new (running the current template's
// hash), stable (status.stableRS) and the others, by name.
func (rc *rolloutContext) sortReplicaSets() {
	objs, _ := rc.c.env.Listers.ReplicaSetIndex.ByIndex(control.IndexByController, string(rc.ro.UID))
	hash := argo.PodTemplateHash(&rc.ro.Spec.Template, rc.ro.Status.CollisionCount)
	var all []*appsv1.ReplicaSet
	for _, o := range objs {
		if rs, ok := o.(*appsv1.ReplicaSet); ok && rs.Namespace == rc.ro.Namespace && rs.DeletionTimestamp == nil {
			all = append(all, rs)
		}
	}
	slices.SortFunc(all, func(a, b *appsv1.ReplicaSet) int { return strings.Compare(a.Name, b.Name) })
	rc.allRSs, rc.otherRSs, rc.newRS, rc.stableRS = all, nil, nil, nil
	for _, rs := range all {
		h := rs.Labels[argo.PodTemplateHashLabel]
		switch {
		case h == hash:
			rc.newRS = rs
			if h == rc.ro.Status.StableRS {
				rc.stableRS = rs
			}
		case h != "" && h == rc.ro.Status.StableRS:
			rc.stableRS = rs
		default:
			rc.otherRSs = append(rc.otherRSs, rs)
		}
	}
	if rc.newRS == nil {
		rc.findNewByTemplate()
	}
}

// findNewByTemplate is the last resort of Argo's FindNewReplicaSet: no
// ReplicaSet carries the template's hash, but one runs the same template
// (hash label aside) as the API served it, defaulted — as after an undo,
// which writes a ReplicaSet's defaulted template back to the Rollout. The
// oldest such ReplicaSet is the new one.
func (rc *rolloutContext) findNewByTemplate() {
	desired := rc.ro.Spec.Template.DeepCopy()
	delete(desired.Labels, argo.PodTemplateHashLabel)
	byAge := slices.Clone(rc.otherRSs)
	if rc.stableRS != nil {
		byAge = append(byAge, rc.stableRS)
	}
	slices.SortStableFunc(byAge, func(a, b *appsv1.ReplicaSet) int {
		return a.CreationTimestamp.Time.Compare(b.CreationTimestamp.Time)
	})
	for _, rs := range byAge {
		live := rs.Spec.Template.DeepCopy()
		delete(live.Labels, argo.PodTemplateHashLabel)
		if !equality.Semantic.DeepDerivative(*desired, *live) {
			continue
		}
		rc.newRS = rs
		rc.otherRSs = slices.DeleteFunc(rc.otherRSs, func(o *appsv1.ReplicaSet) bool { return o == rs })
		return
	}
}

// podTemplateOrStepsChanged is Argo's PodTemplateOrStepsChanged: the
// Rollout's steps or template differ from those its status last recorded.
func (rc *rolloutContext) podTemplateOrStepsChanged() bool {
	st := rc.ro.Status
	// A status without a step hash (a Rollout never synced) counts as
	// changed, as in Argo's checkStepHashChange: the first sync records
	// step 0 and the new pod hash before the initial deploy promotes it.
	if st.CurrentStepHash == "" || st.CurrentStepHash != argo.StepHash(rc.ro) {
		return true
	}
	return rc.podSpecChanged()
}

// podSpecChanged is Argo's CheckPodSpecChange, which blue/green asks
// alone (it has no steps): the template differs from the one the status
// last recorded; a status that recorded none has not changed.
func (rc *rolloutContext) podSpecChanged() bool {
	st := rc.ro.Status
	if st.CurrentPodHash == "" {
		return false
	}
	return st.CurrentPodHash != rc.currentPodHash()
}

func (rc *rolloutContext) currentPodHash() string {
	if rc.newRS != nil {
		return rc.newRS.Labels[argo.PodTemplateHashLabel]
	}
	return argo.PodTemplateHash(&rc.ro.Spec.Template, rc.ro.Status.CollisionCount)
}

// rolloutCanary is Argo's rolloutCanary without what the basic canary does
// not have (services, traffic routing, experiments, step plugins).
func (rc *rolloutContext) rolloutCanary(ctx context.Context) error {
	if rc.podTemplateOrStepsChanged() {
		return rc.syncRolloutStatusCanary(ctx)
	}
	if restarted, err := rc.reconcileRestart(ctx); err != nil || restarted > 0 {
		return err
	}
	err := rc.reconcileAnalysisRuns(ctx)
	if len(rc.addPause) > 0 { // an inconclusive run
		return rc.syncRolloutStatusCanary(ctx)
	}
	if err != nil {
		return err
	}
	scaled, err := rc.reconcileCanaryReplicaSets(ctx)
	if err != nil {
		return err
	}
	if scaled {
		return rc.syncRolloutStatusCanary(ctx)
	}
	rc.reconcileCanaryPause()
	return rc.syncRolloutStatusCanary(ctx)
}

// isScalingEvent is Argo's: spec.replicas differs from the
// desired-replicas annotation of the new or the stable ReplicaSet.
func (rc *rolloutContext) isScalingEvent() bool {
	want := replicasOrDefault(rc.ro)
	for _, rs := range []*appsv1.ReplicaSet{rc.newRS, rc.stableRS} {
		if rs == nil || replicas(rs) == 0 {
			continue
		}
		if d, err := strconv.ParseInt(rs.Annotations[desiredReplicasAnnotation], 10, 32); err == nil && int32(d) != want {
			return true
		}
	}
	return false
}

// syncReplicasOnly is Argo's answer to a scaling event: the ReplicaSets
// resized, the status otherwise kept.
func (rc *rolloutContext) syncReplicasOnly(ctx context.Context) error {
	if rc.blueGreen() != nil {
		return rc.syncReplicasOnlyBlueGreen(ctx)
	}
	ns := *rc.ro.Status.DeepCopy()
	if _, err := rc.reconcileCanaryReplicaSets(ctx); err != nil {
		return err
	}
	ns.AvailableReplicas = model.AvailableReplicaCount(rc.allRSs)
	ns.HPAReplicas = model.ActualReplicaCount(rc.allRSs)
	return rc.persistRolloutStatus(ctx, &ns)
}

// reconcileCanaryPause is Argo's: on a pause step the controller pauses the
// Rollout once (a pause condition with its start time), and a timed pause
// is synced again when it ends.
func (rc *rolloutContext) reconcileCanaryPause() {
	ro := rc.ro
	if ro.Spec.Paused || ro.Status.PromoteFull {
		return
	}
	step, i := argo.CurrentStep(ro)
	if step == nil || i == nil || step.Pause == nil {
		return
	}
	cond := pauseCondition(ro, argo.PauseReasonCanaryPauseStep)
	if cond == nil {
		if !ro.Status.ControllerPause {
			rc.addPause = append(rc.addPause, argo.PauseReasonCanaryPauseStep)
		}
		return
	}
	if step.Pause.Duration == nil {
		return
	}
	end := cond.StartTime.Add(time.Duration(kind.PauseSeconds(step.Pause)) * time.Second)
	if now := rc.now.Time; end.After(now) {
		rc.c.enqueueAfter(rc.key, end.Sub(now))
	}
}

func pauseCondition(ro *argo.Rollout, reason argo.PauseReason) *argo.PauseCondition {
	for i := range ro.Status.PauseConditions {
		if ro.Status.PauseConditions[i].Reason == reason {
			return &ro.Status.PauseConditions[i]
		}
	}
	return nil
}

// completedCurrentCanaryStep is Argo's, for the steps the basic canary has.
func (rc *rolloutContext) completedCurrentCanaryStep() bool {
	ro := rc.ro
	if ro.Spec.Paused {
		return false
	}
	step, _ := argo.CurrentStep(ro)
	if step == nil {
		return false
	}
	switch {
	case step.Pause != nil:
		cond := pauseCondition(ro, argo.PauseReasonCanaryPauseStep)
		if ro.Status.ControllerPause && cond == nil {
			return true
		}
		if step.Pause.Duration != nil && cond != nil {
			end := cond.StartTime.Add(time.Duration(kind.PauseSeconds(step.Pause)) * time.Second)
			// Argo asks whether its clock is after the end; it is
			// requeued for the end, which its clock has passed by then.
			// The virtual clock stands exactly at the end.
			return !rc.now.Time.Before(end)
		}
		return false
	case step.SetCanaryScale != nil, step.SetWeight != nil:
		return rc.atDesiredReplicaCounts()
	case step.Analysis != nil:
		return rc.runs.step != nil && rc.runs.step.Status.Phase == argo.AnalysisPhaseSuccessful
	case len(step.SetHeaderRoute) > 0, len(step.SetMirrorRoute) > 0:
		return true
	}
	return false
}

// atDesiredReplicaCounts is AtDesiredReplicaCountsForCanary for the basic
// canary: the new and stable sets at the counts the arithmetic asks for,
// all of them available, and every other set scaled to zero.
func (rc *rolloutContext) atDesiredReplicaCounts() bool {
	newCount, stableCount := rc.desiredCounts()
	if rc.newRS == nil || replicas(rc.newRS) != newCount || rc.newRS.Status.AvailableReplicas != newCount {
		return false
	}
	if rc.stableRS != nil && rc.stableRS != rc.newRS &&
		(replicas(rc.stableRS) != stableCount || rc.stableRS.Status.AvailableReplicas != stableCount) {
		return false
	}
	for _, rs := range rc.otherRSs {
		if rs.Status.AvailableReplicas > 0 || replicas(rs) > 0 {
			return false
		}
	}
	return true
}

// syncRolloutStatusCanary is Argo's: it moves the step index on, promotes
// the new ReplicaSet to stable when the steps end, and writes the status.
func (rc *rolloutContext) syncRolloutStatusCanary(ctx context.Context) error {
	ro := rc.ro
	ns := rc.calculateBaseStatus()
	ns.AvailableReplicas = model.AvailableReplicaCount(rc.allRSs)
	ns.HPAReplicas = model.ActualReplicaCount(rc.allRSs)
	ns.Selector = metav1.FormatLabelSelector(ro.Spec.Selector)
	_, idx := argo.CurrentStep(ro)
	ns.StableRS = ro.Status.StableRS
	ns.CurrentStepHash = argo.StepHash(ro)
	stepCount := int32(len(ro.Spec.Strategy.Canary.Steps))

	if rc.podTemplateOrStepsChanged() {
		rc.resetRolloutStatus(&ns)
		if rc.newRS != nil && stepCount > 0 && ro.Status.StableRS == rc.newRS.Labels[argo.PodTemplateHashLabel] {
			rc.c.env.Events.Eventf(ro, corev1.EventTypeNormal, "SkipSteps", "Rollback to stable ReplicaSets")
			ns.CurrentStepIndex = &stepCount
		}
		return rc.persistRolloutStatus(ctx, &ns)
	}
	if ro.Status.PromoteFull {
		rc.clearPause, rc.removeAbort = true, true
		if stepCount > 0 {
			idx = &stepCount
		}
	}
	if reason := rc.shouldFullPromote(idx); reason != "" {
		rc.promoteStable(&ns, reason)
		return rc.persistRolloutStatus(ctx, &ns)
	}
	if rc.aborted() {
		if stepCount > 0 {
			if ns.StableRS == ns.CurrentPodHash {
				ns.CurrentStepIndex = &stepCount
			} else {
				ns.CurrentStepIndex = new(int32)
			}
		}
		return rc.persistRolloutStatus(ctx, &ns)
	}
	if rc.completedCurrentCanaryStep() {
		step, _ := argo.CurrentStep(ro)
		next := *idx + 1
		idx = &next
		ns.Canary.CurrentStepAnalysisRunStatus = nil
		rc.c.env.Events.Eventf(ro, corev1.EventTypeNormal, "RolloutStepCompleted", "Rollout step %d/%d completed (%s)", next, stepCount, stepString(step))
		rc.removePause = append(rc.removePause, argo.PauseReasonCanaryPauseStep)
	}
	ns.CurrentStepIndex = idx
	return rc.persistRolloutStatus(ctx, &ns)
}

// stepString is Argo's CanaryStepString.
func stepString(s *argo.CanaryStep) string {
	switch {
	case s.SetWeight != nil:
		return fmt.Sprintf("setWeight: %d", *s.SetWeight)
	case s.Pause != nil:
		if s.Pause.Duration != nil {
			return "pause: " + s.Pause.Duration.String()
		}
		return "pause"
	case s.Analysis != nil:
		return "analysis"
	case s.SetCanaryScale != nil:
		switch sc := s.SetCanaryScale; {
		case sc.Replicas != nil:
			return fmt.Sprintf("setCanaryScale{replicas: %d}", *sc.Replicas)
		case sc.Weight != nil:
			return fmt.Sprintf("setCanaryScale{weight: %d}", *sc.Weight)
		case sc.MatchTrafficWeight:
			return "setCanaryScale{matchTrafficWeight: true}"
		}
	case len(s.SetHeaderRoute) > 0:
		return "setHeaderRoute"
	case len(s.SetMirrorRoute) > 0:
		return "setMirrorRoute"
	}
	return "invalid"
}

func (rc *rolloutContext) aborted() bool {
	return rc.addAbort != "" || rc.ro.Status.Abort && !rc.removeAbort
}

// calculateBaseStatus is Argo's.
func (rc *rolloutContext) calculateBaseStatus() argo.RolloutStatus {
	ns := rc.newStatus
	ns.CurrentPodHash = rc.currentPodHash()
	ns.Replicas = model.ActualReplicaCount(rc.allRSs)
	if rc.newRS != nil {
		ns.UpdatedReplicas = rc.newRS.Status.Replicas
	}
	ns.ReadyReplicas = ready(rc.allRSs)
	ns.CollisionCount = rc.ro.Status.CollisionCount
	ns.Conditions = append([]argo.RolloutCondition(nil), rc.ro.Status.Conditions...)
	ns.PromoteFull = ns.CurrentPodHash != ns.StableRS && rc.ro.Status.PromoteFull
	if rc.createdNewRS {
		setCondition(&ns, rc.condition(argo.RolloutProgressing, corev1.ConditionTrue, reasonNewRSCreated, fmt.Sprintf(msgNewRSCreated, rc.newRS.Name)))
	}
	return ns
}

// resetRolloutStatus is Argo's, on a new template or new steps.
func (rc *rolloutContext) resetRolloutStatus(ns *argo.RolloutStatus) {
	rc.clearPause, rc.removeAbort = true, true
	ns.RestartedAt = rc.ro.Spec.RestartAt
	ns.PromoteFull = false
	ns.Canary = argo.CanaryStatus{}
	ns.BlueGreen.ScaleUpPreviewCheckPoint = false
	if len(canarySteps(rc.ro)) > 0 {
		ns.CurrentStepIndex = new(int32)
	} else {
		ns.CurrentStepIndex = nil
	}
}

// shouldFullPromote is Argo's for a canary: "" while the new ReplicaSet is
// not fully available or steps remain.
func (rc *rolloutContext) shouldFullPromote(idx *int32) string {
	if rc.stableRS == nil {
		return "Initial deploy"
	}
	if rc.aborted() {
		return ""
	}
	if rc.newRS == nil || rc.newRS.Status.AvailableReplicas < replicasOrDefault(rc.ro) {
		return ""
	}
	if rc.ro.Status.PromoteFull {
		return "Full promotion requested"
	}
	stepCount := len(rc.ro.Spec.Strategy.Canary.Steps)
	if stepCount == 0 || (idx != nil && *idx == int32(stepCount)) {
		return fmt.Sprintf("Completed all %d canary steps", stepCount)
	}
	return ""
}

// promoteStable is Argo's: the current pod hash becomes the stable one.
func (rc *rolloutContext) promoteStable(ns *argo.RolloutStatus, reason string) {
	rc.clearPause, rc.removeAbort = true, true
	ns.PromoteFull = false
	ns.BlueGreen.ScaleUpPreviewCheckPoint = false
	if stepCount := int32(len(canarySteps(rc.ro))); stepCount > 0 {
		ns.CurrentStepIndex = &stepCount
	} else {
		ns.CurrentStepIndex = nil
	}
	if ns.StableRS != ns.CurrentPodHash {
		ns.StableRS = ns.CurrentPodHash
		rc.c.env.Events.Eventf(rc.ro, corev1.EventTypeNormal, "RolloutCompleted", "Rollout completed update to revision %d (%s): %s",
			revision(rc.ro.Annotations), ns.CurrentPodHash, reason)
	}
}

// calculatePauseStatus is Argo's CalculatePauseStatus (with its abort part).
func (rc *rolloutContext) calculatePauseStatus(ns *argo.RolloutStatus) {
	if rc.aborted() {
		ns.Abort = true
		ns.AbortedAt = rc.ro.Status.AbortedAt
		if ns.AbortedAt == nil {
			now := rc.now
			ns.AbortedAt = &now
		}
		return
	}
	ns.Abort, ns.AbortedAt = false, nil
	if rc.clearPause {
		return
	}
	controllerPause := rc.ro.Status.ControllerPause
	exists := map[argo.PauseReason]bool{}
	var conds []argo.PauseCondition
	for _, c := range rc.ro.Status.PauseConditions {
		if !slices.Contains(rc.removePause, c.Reason) {
			conds = append(conds, c)
		}
		exists[c.Reason] = true
	}
	for _, r := range rc.addPause {
		if !exists[r] {
			conds = append(conds, argo.PauseCondition{Reason: r, StartTime: rc.now})
			controllerPause = true
		}
	}
	if len(conds) == 0 {
		return
	}
	ns.ControllerPause = controllerPause
	ns.PauseConditions = conds
}

// persistRolloutStatus is Argo's: the status as a JSON merge patch of what
// changed, on the status subresource, and the Paused/Resumed events.
func (rc *rolloutContext) persistRolloutStatus(ctx context.Context, ns *argo.RolloutStatus) error {
	ro := rc.ro
	ns.ObservedGeneration = strconv.FormatInt(ro.Generation, 10)
	rc.evaluateProgressDeadlineAbort(ns)
	rc.calculatePauseStatus(ns)
	rc.calculateRolloutConditions(ns)
	prev := ro.Status
	if err := rc.patchStatus(ctx, ns); err != nil {
		return err
	}
	prevPaused, curPaused := len(prev.PauseConditions) > 0, len(ns.PauseConditions) > 0
	if prevPaused != curPaused {
		if curPaused {
			rc.c.env.Events.Eventf(ro, corev1.EventTypeNormal, "RolloutPaused", "Rollout is paused (%s)", ns.PauseConditions[0].Reason)
		} else if ns.AbortedAt == nil {
			rc.c.env.Events.Eventf(ro, corev1.EventTypeNormal, "RolloutResumed", "Rollout is resumed")
		}
	}
	return nil
}

// patchStatus writes ns as a JSON merge patch of what changed from the
// Rollout's status, on the status subresource, as Argo does; the sync goes
// on from ns.
func (rc *rolloutContext) patchStatus(ctx context.Context, ns *argo.RolloutStatus) error {
	ro := rc.ro
	ns.ObservedGeneration = strconv.FormatInt(ro.Generation, 10)
	ns.Phase, ns.Message = kind.CalculateRolloutPhase(&argo.Rollout{ObjectMeta: ro.ObjectMeta, Spec: ro.Spec, Status: *ns})
	before, err := json.Marshal(map[string]any{"status": ro.Status})
	if err != nil {
		return err
	}
	after, err := json.Marshal(map[string]any{"status": ns})
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(before, after)
	if err != nil {
		return err
	}
	if string(patch) == "{}" {
		rc.requeueStuckRollout(ns)
		return nil
	}
	if rc.c.env.Dynamic == nil {
		return fmt.Errorf("rollout %s: no client for custom resources", rc.key)
	}
	if _, err := rc.c.env.Dynamic.Resource(argo.Rollouts).Namespace(ro.Namespace).Patch(ctx, ro.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status"); err != nil {
		return fmt.Errorf("patch status of rollout %s: %w", rc.key, err)
	}
	ro.Status = *ns
	return nil
}

// replicas is spec.replicas, 0 without one (Argo's own reading).
func replicas(rs *appsv1.ReplicaSet) int32 {
	if rs == nil || rs.Spec.Replicas == nil {
		return 0
	}
	return *rs.Spec.Replicas
}

// ready sums status.readyReplicas (model counts the others).
func ready(rss []*appsv1.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += rs.Status.ReadyReplicas
	}
	return n
}

func replicasOrDefault(r *argo.Rollout) int32 {
	if r.Spec.Replicas == nil {
		return 1
	}
	return *r.Spec.Replicas
}

// revision is the rollout.argoproj.io/revision annotation, 0 without one.
func revision(annotations map[string]string) int64 {
	n, _ := strconv.ParseInt(annotations[argo.RevisionAnnotation], 10, 64)
	return n
}
