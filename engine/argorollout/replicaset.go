package argorollout

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/argo"
)

// desiredReplicasAnnotation is the Rollout's spec.replicas Argo writes on
// each of its ReplicaSets.
const desiredReplicasAnnotation = "rollout.argoproj.io/desired-replicas"

// getAllReplicaSetsAndSyncRevision creates the new ReplicaSet when none
// runs the template yet, and brings the Rollout's revision annotation to
// the new ReplicaSet's.
func (rc *rolloutContext) getAllReplicaSetsAndSyncRevision(ctx context.Context) error {
	if rc.newRS == nil {
		rs, err := rc.createDesiredReplicaSet(ctx)
		if err != nil {
			return err
		}
		rc.newRS = rs
		rc.allRSs = append(rc.allRSs, rs)
	}
	if err := rc.syncReplicaSetRevision(ctx); err != nil {
		return err
	}
	return rc.setRolloutRevision(ctx, rc.newRS.Annotations[argo.RevisionAnnotation])
}

// setRolloutRevision is Argo's: the Rollout's revision annotation brought
// to want, with its event RolloutUpdated.
func (rc *rolloutContext) setRolloutRevision(ctx context.Context, want string) error {
	if want == "" || rc.ro.Annotations[argo.RevisionAnnotation] == want {
		return nil
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, argo.RevisionAnnotation, want)
	if _, err := rc.c.env.Dynamic.Resource(argo.Rollouts).Namespace(rc.ro.Namespace).Patch(ctx, rc.ro.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("update revision of rollout %s: %w", rc.key, err)
	}
	if rc.ro.Annotations == nil {
		rc.ro.Annotations = map[string]string{}
	}
	rc.ro.Annotations[argo.RevisionAnnotation] = want
	rc.c.env.Events.Eventf(rc.ro, corev1.EventTypeNormal, "RolloutUpdated", "Rollout updated to revision %s", want)
	return nil
}

// revisionHistoryAnnotation lists the revisions a ReplicaSet had before
// an undo brought it back.
const revisionHistoryAnnotation = "rollout.argoproj.io/revision-history"

// syncReplicaSetRevision is Argo's for an existing new ReplicaSet: when an
// undo brings an older ReplicaSet back, it takes the next revision and
// keeps its old one in the revision history.
func (rc *rolloutContext) syncReplicaSetRevision(ctx context.Context) error {
	var maxOld int64
	for _, rs := range rc.allRSs {
		if rs != rc.newRS {
			maxOld = max(maxOld, revision(rs.Annotations))
		}
	}
	old, had := rc.newRS.Annotations[argo.RevisionAnnotation]
	if revision(rc.newRS.Annotations) >= maxOld+1 {
		return nil
	}
	cp := rc.newRS.DeepCopy()
	if cp.Annotations == nil {
		cp.Annotations = map[string]string{}
	}
	cp.Annotations[argo.RevisionAnnotation] = strconv.FormatInt(maxOld+1, 10)
	if had && old != "" {
		if h := cp.Annotations[revisionHistoryAnnotation]; h != "" {
			cp.Annotations[revisionHistoryAnnotation] = h + "," + old
		} else {
			cp.Annotations[revisionHistoryAnnotation] = old
		}
	}
	updated, err := rc.c.env.Client.AppsV1().ReplicaSets(cp.Namespace).Update(ctx, cp, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update revision of replica set %s/%s: %w", cp.Namespace, cp.Name, err)
	}
	rc.replace(rc.newRS, updated)
	return nil
}

// replace puts updated wherever the sync holds rs.
func (rc *rolloutContext) replace(rs, updated *appsv1.ReplicaSet) {
	for _, list := range [][]*appsv1.ReplicaSet{rc.allRSs, rc.otherRSs} {
		for i, r := range list {
			if r == rs {
				list[i] = updated
			}
		}
	}
	if rc.newRS == rs {
		rc.newRS = updated
	}
	if rc.stableRS == rs {
		rc.stableRS = updated
	}
}

// createDesiredReplicaSet is Argo's: <rollout>-<hash>, at zero replicas
// (the canary steps scale it), its revision one past the highest.
func (rc *rolloutContext) createDesiredReplicaSet(ctx context.Context) (*appsv1.ReplicaSet, error) {
	ro := rc.ro
	var maxRev int64
	for _, rs := range rc.allRSs {
		maxRev = max(maxRev, revision(rs.Annotations))
	}
	rev := maxRev + 1
	hash := argo.PodTemplateHash(&ro.Spec.Template, ro.Status.CollisionCount)
	tpl := *ro.Spec.Template.DeepCopy()
	tpl.Labels = withLabel(ro.Spec.Template.Labels, hash)
	sel := ro.Spec.Selector.DeepCopy()
	sel.MatchLabels = withLabel(sel.MatchLabels, hash)
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:            ro.Name + "-" + hash,
			Namespace:       ro.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ro, controllerKind)},
			Labels:          tpl.Labels,
			Annotations: map[string]string{
				argo.RevisionAnnotation:   strconv.FormatInt(rev, 10),
				desiredReplicasAnnotation: strconv.Itoa(int(replicasOrDefault(ro))),
			},
		},
		Spec: appsv1.ReplicaSetSpec{Replicas: new(int32), MinReadySeconds: ro.Spec.MinReadySeconds, Selector: sel, Template: tpl},
	}
	created, err := rc.c.env.Client.AppsV1().ReplicaSets(ro.Namespace).Create(ctx, rs, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		// Our own, created by a sync the cache has not shown yet; a
		// collision with another template is not modelled.
		if existing, getErr := rc.c.env.Listers.ReplicaSets.ReplicaSets(ro.Namespace).Get(rs.Name); getErr == nil {
			if ref := metav1.GetControllerOfNoCopy(existing); ref != nil && ref.UID == ro.UID {
				return existing, nil
			}
		}
	}
	if err != nil {
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", rs.Name, err)
		rc.c.env.Events.Eventf(ro, corev1.EventTypeWarning, "ReplicaSetCreateError", "%s", msg)
		return nil, fmt.Errorf("create replica set %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	// Argo records the Rollout's new revision before it says the
	// ReplicaSet was created.
	if err := rc.setRolloutRevision(ctx, strconv.FormatInt(rev, 10)); err != nil {
		return nil, err
	}
	rc.c.env.Events.Eventf(ro, corev1.EventTypeNormal, "NewReplicaSetCreated", "Created ReplicaSet %s (revision %d)", created.Name, rev)
	rc.createdNewRS = true
	return created, nil
}

func withLabel(labels map[string]string, hash string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	for k, v := range labels {
		out[k] = v
	}
	out[argo.PodTemplateHashLabel] = hash
	return out
}

func count(rs *appsv1.ReplicaSet) *argo.ReplicaSetCount {
	if rs == nil {
		return nil
	}
	return &argo.ReplicaSetCount{Name: rs.Name, Spec: replicas(rs), Available: rs.Status.AvailableReplicas}
}

// desiredCounts is CalculateReplicaCountsForBasicCanary on the sets now.
func (rc *rolloutContext) desiredCounts() (newCount, stableCount int32) {
	var older []*argo.ReplicaSetCount
	for _, rs := range rc.otherRSs {
		if replicas(rs) > 0 {
			older = append(older, count(rs))
		}
	}
	return argo.BasicCanaryReplicaCounts(rc.ro, count(rc.newRS), count(rc.stableRS), older)
}

// reconcileCanaryReplicaSets is Argo's: the stable set first, then the
// new one, then the others; true when it scaled one (the rest waits for the
// next sync). A Rollout paused by spec.paused is not scaled.
func (rc *rolloutContext) reconcileCanaryReplicaSets(ctx context.Context) (bool, error) {
	if rc.ro.Spec.Paused {
		return false, nil
	}
	newCount, stableCount := rc.desiredCounts()
	if rc.stableRS != nil && rc.stableRS != rc.newRS {
		if scaled, err := rc.scaleReplicaSet(ctx, rc.stableRS, stableCount); err != nil || scaled {
			return scaled, err
		}
	}
	if rc.newRS != nil {
		if scaled, err := rc.scaleReplicaSet(ctx, rc.newRS, newCount); err != nil || scaled {
			return scaled, err
		}
	}
	return rc.scaleDownOldReplicaSets(ctx)
}

// scaleDownOldReplicaSets is scaleDownOldReplicaSetsForCanary for the basic
// canary: the other sets, highest revision first, down by as many pods as
// are available beyond replicas - maxUnavailable.
func (rc *rolloutContext) scaleDownOldReplicaSets(ctx context.Context) (bool, error) {
	maxScaleDown := model.AvailableReplicaCount(rc.allRSs) - (replicasOrDefault(rc.ro) - argo.MaxUnavailable(rc.ro))
	if maxScaleDown <= 0 {
		return false, nil
	}
	old := slices.Clone(rc.otherRSs)
	slices.SortStableFunc(old, newestFirst)
	var scaledAny bool
	for _, rs := range old {
		if maxScaleDown <= 0 {
			break
		}
		n := replicas(rs)
		if n == 0 {
			continue
		}
		desired := int32(0)
		if n > maxScaleDown {
			desired = n - maxScaleDown
		}
		if _, err := rc.scaleReplicaSet(ctx, rs, desired); err != nil {
			return scaledAny, err
		}
		scaledAny = true
		maxScaleDown -= n - desired
	}
	return scaledAny, nil
}

// newestFirst orders ReplicaSets by revision, the highest first (Argo's
// ReplicaSetsByRevisionNumber, reversed).
func newestFirst(a, b *appsv1.ReplicaSet) int {
	return cmp.Compare(revision(b.Annotations), revision(a.Annotations))
}

// scaleReplicaSet is scaleReplicaSetAndRecordEvent: spec.replicas and the
// desired-replicas annotation, and Argo's ScalingReplicaSet event.
func (rc *rolloutContext) scaleReplicaSet(ctx context.Context, rs *appsv1.ReplicaSet, to int32) (bool, error) {
	want := strconv.Itoa(int(replicasOrDefault(rc.ro)))
	from := replicas(rs)
	if from == to && rs.Annotations[desiredReplicasAnnotation] == want {
		return false, nil
	}
	cp := rs.DeepCopy()
	cp.Spec.Replicas = &to
	if cp.Annotations == nil {
		cp.Annotations = map[string]string{}
	}
	cp.Annotations[desiredReplicasAnnotation] = want
	if to == 0 && !rc.delayScaleDownOnAbort() {
		delete(cp.Annotations, scaleDownDeadlineAnnotation)
	}
	updated, err := rc.c.env.Client.AppsV1().ReplicaSets(cp.Namespace).Update(ctx, cp, metav1.UpdateOptions{})
	if err != nil {
		return false, fmt.Errorf("scale replica set %s/%s: %w", cp.Namespace, cp.Name, err)
	}
	rc.replace(rs, updated)
	if from == to {
		return false, nil
	}
	dir := "up"
	if to < from {
		dir = "down"
	}
	rc.c.env.Events.Eventf(rc.ro, corev1.EventTypeNormal, "ScalingReplicaSet", "Scaled %s ReplicaSet %s (revision %d) from %d to %d",
		dir, rs.Name, revision(rs.Annotations), from, to)
	return true, nil
}
