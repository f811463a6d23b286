package argorollout

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/argo"
)

// Argo's blue/green annotations and defaults (pkg/apis/rollouts/v1alpha1,
// utils/defaults).
const (
	scaleDownDeadlineAnnotation  = "scale-down-deadline"
	managedByRolloutsAnnotation  = "argo-rollouts.argoproj.io/managed-by-rollouts"
	defaultScaleDownDelay        = 30 * time.Second
	defaultAbortScaleDownDelay   = 30 * time.Second
	msgSwitchedSelector          = "Switched selector for service '%s' from '%s' to '%s'"
	reasonSwitchService          = "SwitchService"
	reasonBlueGreenUpdateDone    = "Completed blue-green update"
	reasonBlueGreenInitialDeploy = "Initial deploy"
)

// blueGreen is the Rollout's blue/green strategy, nil for a canary.
func (rc *rolloutContext) blueGreen() *argo.BlueGreenStrategy { return rc.ro.Spec.Strategy.BlueGreen }

// canarySteps are the canary's steps, none for a blue/green Rollout.
func canarySteps(r *argo.Rollout) []argo.CanaryStep {
	if c := r.Spec.Strategy.Canary; c != nil {
		return c.Steps
	}
	return nil
}

// rolloutBlueGreen is Argo's rolloutBlueGreen without analysis, ephemeral
// metadata and AWS target groups: the preview service follows the new
// ReplicaSet at once, the ReplicaSets are scaled, the pause is kept, and
// the active service is switched when the new ReplicaSet is saturated and
// the pause is over.
func (rc *rolloutContext) rolloutBlueGreen(ctx context.Context) error {
	preview, active, err := rc.blueGreenServices(ctx)
	if err != nil {
		return err
	}
	if err := rc.reconcilePreviewService(ctx, preview); err != nil {
		return err
	}
	if rc.podSpecChanged() {
		return rc.syncRolloutStatusBlueGreen(ctx, preview, active)
	}
	if _, err := rc.reconcileRestart(ctx); err != nil {
		return err
	}
	if err := rc.reconcileBlueGreenReplicaSets(ctx, active); err != nil {
		return err
	}
	rc.reconcileBlueGreenPause(active)
	if err := rc.reconcileActiveService(ctx, active); err != nil {
		return err
	}
	return rc.syncRolloutStatusBlueGreen(ctx, preview, active)
}

// blueGreenServices is getPreviewAndActiveServices: the Services the
// strategy names, read from the API (the preview one is optional).
func (rc *rolloutContext) blueGreenServices(ctx context.Context) (preview, active *corev1.Service, err error) {
	bg := rc.blueGreen()
	svcs := rc.c.env.Client.CoreV1().Services(rc.ro.Namespace)
	if bg.PreviewService != "" {
		if preview, err = svcs.Get(ctx, bg.PreviewService, metav1.GetOptions{}); err != nil {
			return nil, nil, fmt.Errorf("rollout %s: preview service: %w", rc.key, err)
		}
	}
	if active, err = svcs.Get(ctx, bg.ActiveService, metav1.GetOptions{}); err != nil {
		return nil, nil, fmt.Errorf("rollout %s: active service: %w", rc.key, err)
	}
	return preview, active, nil
}

// haltProgress is Argo's: spec.paused holds the services.
func (rc *rolloutContext) haltProgress() bool { return rc.ro.Spec.Paused }

// selectorHash is GetRolloutSelectorLabel: the pod-template hash a
// Service selects, "" when it selects none.
func selectorHash(svc *corev1.Service) string {
	if svc == nil {
		return ""
	}
	return svc.Spec.Selector[argo.PodTemplateHashLabel]
}

// switchServiceSelector is Argo's: the Service's selector set to hash with
// a strategic merge patch (which also marks it managed by the Rollout the
// first time) and a SwitchService event.
func (rc *rolloutContext) switchServiceSelector(ctx context.Context, svc *corev1.Service, hash string) error {
	old, ok := svc.Spec.Selector[argo.PodTemplateHashLabel]
	_, managed := svc.Annotations[managedByRolloutsAnnotation]
	if ok && old == hash && managed {
		return nil
	}
	patch := fmt.Sprintf(`{"spec":{"selector":{%q:%q}}}`, argo.PodTemplateHashLabel, hash)
	if !managed {
		patch = fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}},"spec":{"selector":{%q:%q}}}`,
			managedByRolloutsAnnotation, rc.ro.Name, argo.PodTemplateHashLabel, hash)
	}
	if _, err := rc.c.env.Client.CoreV1().Services(svc.Namespace).Patch(ctx, svc.Name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("switch selector of service %s/%s: %w", svc.Namespace, svc.Name, err)
	}
	rc.c.env.Events.Eventf(rc.ro, corev1.EventTypeNormal, reasonSwitchService, msgSwitchedSelector, svc.Name, old, hash)
	if svc.Spec.Selector == nil {
		svc.Spec.Selector = map[string]string{}
	}
	svc.Spec.Selector[argo.PodTemplateHashLabel] = hash
	if svc.Annotations == nil {
		svc.Annotations = map[string]string{}
	}
	svc.Annotations[managedByRolloutsAnnotation] = rc.ro.Name
	return nil
}

// reconcilePreviewService is Argo's: the preview Service selects the new
// ReplicaSet from its creation on.
func (rc *rolloutContext) reconcilePreviewService(ctx context.Context, preview *corev1.Service) error {
	if preview == nil || rc.haltProgress() {
		return nil
	}
	return rc.switchServiceSelector(ctx, preview, rc.newRS.Labels[argo.PodTemplateHashLabel])
}

// reconcileActiveService is Argo's: once the new ReplicaSet is saturated,
// the active Service moves to it when the update is fast-tracked or the
// pause is over, and back to the stable one on an abort.
func (rc *rolloutContext) reconcileActiveService(ctx context.Context, active *corev1.Service) error {
	if rc.haltProgress() || !rc.readyForPause() || !saturated(rc.ro, rc.newRS) {
		return nil
	}
	hash := selectorHash(active)
	if rc.blueGreenFastTracked(active) || rc.completedBlueGreenPause() {
		hash = rc.newRS.Labels[argo.PodTemplateHashLabel]
	}
	if rc.ro.Status.Abort {
		hash = rc.ro.Status.StableRS
	}
	return rc.switchServiceSelector(ctx, active, hash)
}

// saturated is annotations.IsSaturated: rs at spec.replicas, annotated
// with it, and every pod available.
func saturated(ro *argo.Rollout, rs *appsv1.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	d, err := strconv.ParseInt(rs.Annotations[desiredReplicasAnnotation], 10, 32)
	want := replicasOrDefault(ro)
	return err == nil && replicas(rs) == want && int32(d) == want && rs.Status.AvailableReplicas == want
}

// newRSReplicasBlueGreen is NewRSNewReplicas for a blue/green Rollout:
// spec.replicas, or previewReplicaCount until the update is past its
// pause.
func (rc *rolloutContext) newRSReplicasBlueGreen() int32 {
	ro, bg := rc.ro, rc.blueGreen()
	want := replicasOrDefault(ro)
	if bg.PreviewReplicaCount == nil {
		return want
	}
	if active := rc.rsByHash(ro.Status.BlueGreen.ActiveSelector); active == nil || active.Name == rc.newRS.Name {
		return want
	}
	if ro.Status.PromoteFull {
		return want
	}
	if rc.newRS.Labels[argo.PodTemplateHashLabel] != ro.Status.CurrentPodHash {
		return *bg.PreviewReplicaCount
	}
	if !ro.Spec.Paused && len(ro.Status.PauseConditions) == 0 && ro.Status.BlueGreen.ScaleUpPreviewCheckPoint {
		return want
	}
	return *bg.PreviewReplicaCount
}

// rsByHash is GetReplicaSetByTemplateHash.
func (rc *rolloutContext) rsByHash(hash string) *appsv1.ReplicaSet {
	if hash == "" {
		return nil
	}
	for _, rs := range rc.allRSs {
		if rs.Labels[argo.PodTemplateHashLabel] == hash {
			return rs
		}
	}
	return nil
}

// readyForPause is Argo's ReadyForPause: the new ReplicaSet at its count
// with all of it available.
func (rc *rolloutContext) readyForPause() bool {
	n := rc.newRSReplicasBlueGreen()
	return replicas(rc.newRS) == n && rc.newRS.Status.AvailableReplicas == n
}

// isRollback and isFastRollback are Argo's (without a rollback window):
// back to the stable ReplicaSet, or to one created before it while it
// still waits out its scale-down delay.
func (rc *rolloutContext) isRollback() bool {
	if rc.newRS == nil || rc.stableRS == nil {
		return false
	}
	return rc.ro.Status.StableRS == rc.newRS.Labels[argo.PodTemplateHashLabel] ||
		rc.newRS.CreationTimestamp.Before(&rc.stableRS.CreationTimestamp)
}

func (rc *rolloutContext) isFastRollback() bool {
	if !rc.isRollback() {
		return false
	}
	return rc.scaleDownRemaining(rc.newRS) != nil || rc.ro.Status.StableRS == rc.newRS.Labels[argo.PodTemplateHashLabel]
}

// blueGreenFastTracked is isBlueGreenFastTracked: no pause for a fast
// rollback, a full promotion, an active Service that selects no
// ReplicaSet or already the new one.
func (rc *rolloutContext) blueGreenFastTracked(active *corev1.Service) bool {
	if rc.isFastRollback() || rc.ro.Status.PromoteFull {
		return true
	}
	h, ok := active.Spec.Selector[argo.PodTemplateHashLabel]
	return !ok || h == rc.newRS.Labels[argo.PodTemplateHashLabel]
}

// needsBlueGreenControllerPause is Argo's: without auto-promotion, or with
// autoPromotionSeconds, the controller pauses before the switch.
func needsBlueGreenControllerPause(bg *argo.BlueGreenStrategy) bool {
	if bg.AutoPromotionEnabled != nil && !*bg.AutoPromotionEnabled {
		return true
	}
	return bg.AutoPromotionSeconds > 0
}

// autoPromotionDeadline is when a BlueGreenPause started at start ends by
// itself.
func autoPromotionDeadline(bg *argo.BlueGreenStrategy, start metav1.Time) time.Time {
	return start.Add(time.Duration(bg.AutoPromotionSeconds) * time.Second)
}

// completedBlueGreenPause is Argo's CompletedBlueGreenPause: no pause
// being added, and auto-promotion due (at once, or autoPromotionSeconds
// after the pause began) or, without it, the pause cleared by a promote.
func (rc *rolloutContext) completedBlueGreenPause() bool {
	ro, bg := rc.ro, rc.blueGreen()
	cond := pauseCondition(ro, argo.PauseReasonBlueGreenPause)
	switch {
	case len(rc.addPause) > 0:
		return false
	case ro.Status.BlueGreen.ScaleUpPreviewCheckPoint:
		return true
	case bg.AutoPromotionEnabled == nil || *bg.AutoPromotionEnabled:
		if bg.AutoPromotionSeconds == 0 {
			return true
		}
		// Argo asks whether its clock is after the deadline; it is
		// requeued for the deadline, which its clock has passed by then.
		// The virtual clock stands exactly at it.
		return cond != nil && !rc.now.Time.Before(autoPromotionDeadline(bg, cond.StartTime))
	}
	return ro.Status.ControllerPause && cond == nil
}

// reconcileBlueGreenPause is Argo's: once the new ReplicaSet is ready, the
// controller adds the BlueGreenPause (unless the update is fast-tracked or
// promotes itself at once), and removes it when autoPromotionSeconds pass.
func (rc *rolloutContext) reconcileBlueGreenPause(active *corev1.Service) {
	ro, bg := rc.ro, rc.blueGreen()
	if ro.Status.Abort || !rc.readyForPause() || rc.haltProgress() {
		return
	}
	if rc.blueGreenFastTracked(active) || ro.Status.BlueGreen.ScaleUpPreviewCheckPoint || !needsBlueGreenControllerPause(bg) {
		rc.removePause = append(rc.removePause, argo.PauseReasonBlueGreenPause)
		return
	}
	cond := pauseCondition(ro, argo.PauseReasonBlueGreenPause)
	switch {
	case cond == nil:
		if !ro.Status.ControllerPause {
			rc.addPause = append(rc.addPause, argo.PauseReasonBlueGreenPause)
		}
	case rc.completedBlueGreenPause():
		rc.removePause = append(rc.removePause, argo.PauseReasonBlueGreenPause)
	case bg.AutoPromotionSeconds > 0:
		if end := autoPromotionDeadline(bg, cond.StartTime); end.After(rc.now.Time) {
			rc.c.enqueueAfter(rc.key, end.Sub(rc.now.Time))
		}
	}
}

// reconcileBlueGreenReplicaSets is Argo's: deadlines taken off the new and
// stable ReplicaSets, the stable one kept at full size, the new one scaled
// to its count, and the others scaled down after their delay.
func (rc *rolloutContext) reconcileBlueGreenReplicaSets(ctx context.Context, active *corev1.Service) error {
	if err := rc.removeScaleDownDeadlines(ctx); err != nil {
		return err
	}
	if rc.stableRS != nil {
		if _, err := rc.scaleReplicaSet(ctx, rc.stableRS, replicasOrDefault(rc.ro)); err != nil {
			return err
		}
	}
	if err := rc.reconcileNewReplicaSetBlueGreen(ctx); err != nil {
		return err
	}
	_, err := rc.scaleDownOldReplicaSetsBlueGreen(ctx, active)
	return err
}

// removeScaleDownDeadlines is Argo's: an update moved back to a set still
// within its delay keeps it.
func (rc *rolloutContext) removeScaleDownDeadlines(ctx context.Context) error {
	var sets []*appsv1.ReplicaSet
	if rc.newRS != nil && !rc.delayScaleDownOnAbort() {
		sets = append(sets, rc.newRS)
	}
	if rc.stableRS != nil && (len(sets) == 0 || rc.stableRS.Name != rc.newRS.Name) {
		sets = append(sets, rc.stableRS)
	}
	for _, rs := range sets {
		if _, has := rs.Annotations[scaleDownDeadlineAnnotation]; has {
			if err := rc.patchScaleDownDeadline(ctx, rs, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// patchScaleDownDeadline adds the scale-down-deadline annotation (at
// deadline) or removes it (""), with the JSON patch Argo sends.
func (rc *rolloutContext) patchScaleDownDeadline(ctx context.Context, rs *appsv1.ReplicaSet, deadline string) error {
	patch := fmt.Sprintf(`[{"op":"remove","path":"/metadata/annotations/%s"}]`, scaleDownDeadlineAnnotation)
	if deadline != "" {
		patch = fmt.Sprintf(`[{"op":"add","path":"/metadata/annotations/%s","value":%q}]`, scaleDownDeadlineAnnotation, deadline)
	}
	updated, err := rc.c.env.Client.AppsV1().ReplicaSets(rs.Namespace).Patch(ctx, rs.Name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("scale-down-deadline of replica set %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	rc.replace(rs, updated)
	return nil
}

// addScaleDownDelay is Argo's: the deadline d from now, in whole seconds.
func (rc *rolloutContext) addScaleDownDelay(ctx context.Context, rs *appsv1.ReplicaSet, d time.Duration) error {
	if d == 0 {
		if _, has := rs.Annotations[scaleDownDeadlineAnnotation]; has {
			return rc.patchScaleDownDeadline(ctx, rs, "")
		}
		return nil
	}
	return rc.patchScaleDownDeadline(ctx, rs, rc.now.Add(d).UTC().Format(time.RFC3339))
}

// scaleDownRemaining is GetTimeRemainingBeforeScaleDownDeadline: nil
// without a deadline or once it has passed.
func (rc *rolloutContext) scaleDownRemaining(rs *appsv1.ReplicaSet) *time.Duration {
	if rs == nil {
		return nil
	}
	s, ok := rs.Annotations[scaleDownDeadlineAnnotation]
	if !ok {
		return nil
	}
	at, err := time.Parse(time.RFC3339, s)
	if err != nil || !at.After(rc.now.Time) {
		return nil
	}
	d := at.Sub(rc.now.Time)
	return &d
}

// scaleDownDelay is GetScaleDownDelaySecondsOrDefault for blue/green.
func scaleDownDelay(bg *argo.BlueGreenStrategy) time.Duration {
	if bg.ScaleDownDelaySeconds != nil {
		return time.Duration(*bg.ScaleDownDelaySeconds) * time.Second
	}
	return defaultScaleDownDelay
}

// abortScaleDownDelay is GetAbortScaleDownDelaySecondsOrDefault: nil when
// the preview stays up after an abort (abortScaleDownDelaySeconds: 0).
func abortScaleDownDelay(bg *argo.BlueGreenStrategy) *time.Duration {
	if bg.KeepsPreviewOnAbort() {
		return nil
	}
	d := defaultAbortScaleDownDelay
	if bg.AbortScaleDownDelaySeconds != nil {
		d = time.Duration(*bg.AbortScaleDownDelaySeconds) * time.Second
	}
	return &d
}

// delayScaleDownOnAbort is shouldDelayScaleDownOnAbort for blue/green.
func (rc *rolloutContext) delayScaleDownOnAbort() bool {
	return rc.blueGreen() != nil && rc.aborted() && rc.stableRS != nil && abortScaleDownDelay(rc.blueGreen()) != nil
}

// reconcileNewReplicaSetBlueGreen is reconcileNewReplicaSet for
// blue/green: after an abort the preview ReplicaSet stays up until the
// stable one is available again and abortScaleDownDelaySeconds pass.
func (rc *rolloutContext) reconcileNewReplicaSetBlueGreen(ctx context.Context) error {
	if rc.newRS == nil {
		return nil
	}
	n := rc.newRSReplicasBlueGreen()
	if rc.delayScaleDownOnAbort() {
		if _, has := rc.newRS.Annotations[scaleDownDeadlineAnnotation]; has {
			if left := rc.scaleDownRemaining(rc.newRS); left != nil {
				rc.c.enqueueAfter(rc.key, *left)
				_, err := rc.scaleReplicaSet(ctx, rc.newRS, replicas(rc.newRS))
				return err
			}
			n = 0
		} else {
			if _, err := rc.scaleReplicaSet(ctx, rc.newRS, replicas(rc.newRS)); err != nil {
				return err
			}
			if rc.stableRS.Status.AvailableReplicas >= replicasOrDefault(rc.ro) {
				return rc.addScaleDownDelay(ctx, rc.newRS, *abortScaleDownDelay(rc.blueGreen()))
			}
			return nil
		}
	}
	_, err := rc.scaleReplicaSet(ctx, rc.newRS, n)
	return err
}

// scaleDownRevisionLimit is GetScaleDownRevisionLimit.
func scaleDownRevisionLimit(bg *argo.BlueGreenStrategy) int32 {
	if bg.ScaleDownDelayRevisionLimit != nil {
		return *bg.ScaleDownDelayRevisionLimit
	}
	return math.MaxInt32
}

// scaleDownOldReplicaSetsBlueGreen is scaleDownOldReplicaSetsForBlueGreen:
// the other ReplicaSets, highest revision first, each one no Service or
// status still refers to given the scale-down-deadline annotation, then
// scaled to zero when it passes (at once beyond
// scaleDownDelayRevisionLimit).
func (rc *rolloutContext) scaleDownOldReplicaSetsBlueGreen(ctx context.Context, active *corev1.Service) (bool, error) {
	var old []*appsv1.ReplicaSet
	for _, rs := range rc.otherRSs {
		if replicas(rs) > 0 {
			old = append(old, rs)
		}
	}
	slices.SortStableFunc(old, newestFirst)
	bg := rc.blueGreen()
	limit, want := scaleDownRevisionLimit(bg), replicasOrDefault(rc.ro)
	var annotated int32
	var scaled bool
	for _, rs := range old {
		if rc.referenced(ctx, rs) {
			continue
		}
		desired := int32(0)
		_, has := rs.Annotations[scaleDownDeadlineAnnotation]
		switch {
		case !has:
			if annotated < limit {
				annotated++
				desired = replicas(rs)
				d := scaleDownDelay(bg)
				if err := rc.addScaleDownDelay(ctx, rs, d); err != nil {
					return scaled, err
				}
				rc.c.enqueueAfter(rc.key, d)
			}
		default:
			annotated++
			if annotated <= limit {
				if left := rc.scaleDownRemaining(rs); left != nil {
					rc.c.enqueueAfter(rc.key, *left)
					desired = want
				}
			}
		}
		cur := rc.current(rs)
		if replicas(cur) == desired {
			continue
		}
		if _, err := rc.scaleReplicaSet(ctx, cur, desired); err != nil {
			return scaled, err
		}
		scaled = true
	}
	return scaled, nil
}

// current is the sync's newest copy of rs (after a patch replaced it).
func (rc *rolloutContext) current(rs *appsv1.ReplicaSet) *appsv1.ReplicaSet {
	for _, r := range rc.allRSs {
		if r.Name == rs.Name {
			return r
		}
	}
	return rs
}

// referenced is isReplicaSetReferenced for blue/green: the status or
// either Service still points at rs.
func (rc *rolloutContext) referenced(ctx context.Context, rs *appsv1.ReplicaSet) bool {
	h := rs.Labels[argo.PodTemplateHashLabel]
	if h == "" {
		return false
	}
	st := rc.ro.Status
	if slices.Contains([]string{st.StableRS, st.CurrentPodHash, st.BlueGreen.ActiveSelector, st.BlueGreen.PreviewSelector}, h) {
		return true
	}
	bg := rc.blueGreen()
	for _, name := range []string{bg.ActiveService, bg.PreviewService} {
		if name == "" {
			continue
		}
		svc, err := rc.c.env.Client.CoreV1().Services(rc.ro.Namespace).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil || selectorHash(svc) == h {
			return true
		}
	}
	return false
}

// waitingForScaleDown is isWaitingForReplicaSetScaleDown: another
// ReplicaSet still waits out its scale-down delay (the progress deadline
// does not run meanwhile).
func (rc *rolloutContext) waitingForScaleDown() bool {
	for _, rs := range rc.otherRSs {
		if _, has := rc.current(rs).Annotations[scaleDownDeadlineAnnotation]; has {
			return true
		}
	}
	return false
}

// shouldFullPromoteBlueGreen is shouldFullPromote for blue/green: the new
// ReplicaSet becomes stable once the active Service selects it.
func (rc *rolloutContext) shouldFullPromoteBlueGreen(ns *argo.RolloutStatus) string {
	switch {
	case rc.stableRS == nil || ns.BlueGreen.ActiveSelector == "":
		return reasonBlueGreenInitialDeploy
	case ns.BlueGreen.ActiveSelector != ns.CurrentPodHash:
		return ""
	case rc.ro.Status.PromoteFull:
		return "Full promotion requested"
	case rc.isFastRollback():
		return "Fast rollback"
	case rc.aborted():
		return ""
	}
	return reasonBlueGreenUpdateDone
}

// scaleUpPreviewCheckPoint is calculateScaleUpPreviewCheckPoint: with a
// previewReplicaCount, set once the pause is over and the preview
// ReplicaSet is available at its count.
func (rc *rolloutContext) scaleUpPreviewCheckPoint() bool {
	ro, bg := rc.ro, rc.blueGreen()
	if bg.PreviewReplicaCount == nil {
		return false
	}
	if ro.Status.BlueGreen.ScaleUpPreviewCheckPoint {
		return true
	}
	if !rc.completedBlueGreenPause() {
		return false
	}
	return *bg.PreviewReplicaCount == rc.newRS.Status.AvailableReplicas
}

// syncRolloutStatusBlueGreen is Argo's: the selectors the Services have
// now, the stable ReplicaSet moved once the active one is the new one, and
// the replica counts of the active ReplicaSet.
func (rc *rolloutContext) syncRolloutStatusBlueGreen(ctx context.Context, preview, active *corev1.Service) error {
	ro := rc.ro
	ns := rc.calculateBaseStatus()
	ns.StableRS = ro.Status.StableRS
	if rc.podSpecChanged() {
		rc.resetRolloutStatus(&ns)
	}
	if ro.Status.PromoteFull {
		rc.clearPause, rc.removeAbort = true, true
	}
	ns.BlueGreen.PreviewSelector = selectorHash(preview)
	ns.BlueGreen.ActiveSelector = selectorHash(active)
	if reason := rc.shouldFullPromoteBlueGreen(&ns); reason != "" {
		rc.promoteStable(&ns, reason)
	} else {
		ns.BlueGreen.ScaleUpPreviewCheckPoint = rc.scaleUpPreviewCheckPoint()
	}
	rc.activeReplicaCounts(&ns)
	return rc.persistRolloutStatus(ctx, &ns)
}

// activeReplicaCounts is Argo's accounting on the active ReplicaSet, or on
// all of them while none is active.
func (rc *rolloutContext) activeReplicaCounts(ns *argo.RolloutStatus) {
	if rs := rc.rsByHash(ns.BlueGreen.ActiveSelector); rs != nil {
		ns.HPAReplicas = rs.Status.Replicas
		ns.Selector = metav1.FormatLabelSelector(rs.Spec.Selector)
		ns.AvailableReplicas = rs.Status.AvailableReplicas
		ns.ReadyReplicas = rs.Status.ReadyReplicas
		return
	}
	ns.HPAReplicas = model.ActualReplicaCount(rc.allRSs)
	ns.Selector = metav1.FormatLabelSelector(rc.ro.Spec.Selector)
	ns.AvailableReplicas = model.AvailableReplicaCount(rc.allRSs)
}

// syncReplicasOnlyBlueGreen is syncReplicasOnly for blue/green.
func (rc *rolloutContext) syncReplicasOnlyBlueGreen(ctx context.Context) error {
	ns := *rc.ro.Status.DeepCopy()
	_, active, err := rc.blueGreenServices(ctx)
	if err != nil {
		return nil
	}
	if err := rc.reconcileBlueGreenReplicaSets(ctx, active); err != nil {
		return err
	}
	if rs := rc.rsByHash(ns.BlueGreen.ActiveSelector); rs != nil {
		ns.HPAReplicas = rs.Status.Replicas
		ns.AvailableReplicas = rs.Status.AvailableReplicas
	} else {
		ns.HPAReplicas = model.ActualReplicaCount(rc.allRSs)
		ns.AvailableReplicas = model.AvailableReplicaCount(rc.allRSs)
	}
	return rc.persistRolloutStatus(ctx, &ns)
}
