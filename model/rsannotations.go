package model

import (
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
)

// RevisionHistoryLimitChars bounds the revision-history annotation, as upstream does.
const RevisionHistoryLimitChars = 2000

// SetNewReplicaSetAnnotations brings the new ReplicaSet's annotations in line
// with its deployment: copies the deployment's own annotations, raises the
// revision to newRevision (never lowers it), remembers the revision a re-used
// ReplicaSet had in revision-history (bounded by limitChars), and for a
// ReplicaSet about to be created (exists false) records desired and max
// replicas. It reports whether anything changed.
func SetNewReplicaSetAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet, newRevision string, exists bool, limitChars int) bool {
	changed := copyDeploymentAnnotations(d, rs)
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	oldRevision, had := rs.Annotations[RevisionAnnotation]
	oldN, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			// An unreadable revision is left alone rather than guessed at.
			return false
		}
		oldN = 0
	}
	newN, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldN < newN {
		rs.Annotations[RevisionAnnotation] = newRevision
		changed = true
	}
	if had && oldN < newN {
		appendRevisionHistory(rs, oldRevision, limitChars)
	}
	if !exists && SetReplicasAnnotations(rs, DesiredReplicas(d), DesiredReplicas(d)+MaxSurge(d)) {
		changed = true
	}
	return changed
}

// appendRevisionHistory adds oldRevision to the ReplicaSet's revision
// history, dropping the oldest entries to stay within limitChars.
func appendRevisionHistory(rs *appsv1.ReplicaSet, oldRevision string, limitChars int) {
	history := rs.Annotations[RevisionHistoryAnnotation]
	parts := strings.Split(history, ",")
	if parts[0] == "" {
		rs.Annotations[RevisionHistoryAnnotation] = oldRevision
		return
	}
	total := len(history) + len(oldRevision) + 1
	start := 0
	for total > limitChars && start < len(parts) {
		total -= len(parts[start]) + 1
		start++
	}
	if total <= limitChars {
		rs.Annotations[RevisionHistoryAnnotation] = strings.Join(append(parts[start:], oldRevision), ",")
	}
}

// copyDeploymentAnnotations copies the deployment's annotations, except the
// ones that describe the deployment itself, onto the ReplicaSet.
func copyDeploymentAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	changed := false
	for _, k := range sortedKeys(d.Annotations) {
		v := d.Annotations[k]
		if SkipCopyAnnotation(k) {
			continue
		}
		if old, ok := rs.Annotations[k]; ok && old == v {
			continue
		}
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// DeploymentAnnotationsFrom is what a rollback sets as the deployment's
// annotations: its own annotations from the skip list, plus every other
// annotation of the ReplicaSet it goes back to.
func DeploymentAnnotationsFrom(d *appsv1.Deployment, rs *appsv1.ReplicaSet) map[string]string {
	out := map[string]string{}
	for k, v := range d.Annotations {
		if SkipCopyAnnotation(k) {
			out[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !SkipCopyAnnotation(k) {
			out[k] = v
		}
	}
	return out
}

// SetReplicasAnnotations records the deployment's spec.replicas and
// spec.replicas + maxSurge on the ReplicaSet; proportional scaling reads them
// back to see how big the deployment was when the ReplicaSet was last sized.
func SetReplicasAnnotations(rs *appsv1.ReplicaSet, desired, max int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	d, m := strconv.Itoa(int(desired)), strconv.Itoa(int(max))
	changed := false
	if rs.Annotations[DesiredReplicasAnnotation] != d {
		rs.Annotations[DesiredReplicasAnnotation] = d
		changed = true
	}
	if rs.Annotations[MaxReplicasAnnotation] != m {
		rs.Annotations[MaxReplicasAnnotation] = m
		changed = true
	}
	return changed
}

// ReplicasAnnotationsNeedUpdate reports whether the ReplicaSet's desired or
// max replicas annotations differ from desired and max.
func ReplicasAnnotationsNeedUpdate(rs *appsv1.ReplicaSet, desired, max int32) bool {
	if rs.Annotations == nil {
		return true
	}
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.Itoa(int(max))
}

// AnnotatedReplicas reads an int32 replicas annotation (desired-replicas or
// max-replicas) off the ReplicaSet; ok is false when missing or unreadable.
func AnnotatedReplicas(rs *appsv1.ReplicaSet, key string) (n int32, ok bool) {
	v, found := rs.Annotations[key]
	if !found {
		return 0, false
	}
	i, err := strconv.Atoi(v)
	if err != nil {
		return 0, false
	}
	return int32(i), true // wraps like upstream's int32(Atoi)
}
