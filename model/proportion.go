package model

import (
	"slices"

	appsv1 "k8s.io/api/apps/v1"
)

// IsSaturated reports whether the new ReplicaSet holds the whole deployment:
// asked for, annotated with and reporting available exactly spec.replicas.
func IsSaturated(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, ok := AnnotatedReplicas(rs, DesiredReplicasAnnotation)
	if !ok {
		return false
	}
	n := DesiredReplicas(d)
	return SpecReplicas(rs) == n && desired == n && rs.Status.AvailableReplicas == n
}

// FindActiveOrLatest returns the one ReplicaSet a scaling event can simply
// resize: the only active one, or when none is active the new one (else the
// newest old one). With several active it returns nil: they are scaled
// proportionally.
func FindActiveOrLatest(newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	olds := slices.Clone(oldRSs)
	SortByCreationTimestampNewestFirst(nonNil(olds))
	active := FilterActive(append(olds, newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return olds[0]
	case 1:
		return active[0]
	}
	return nil
}

// nonNil returns rss itself when it has no nil entry; sorting must not meet one.
func nonNil(rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	if !slices.Contains(rss, nil) {
		return rss
	}
	return slices.DeleteFunc(rss, func(rs *appsv1.ReplicaSet) bool { return rs == nil })
}

// ReplicaSetProportion is how many replicas a proportional scale gives the
// ReplicaSet (negative: takes) out of toAdd, of which added are already given
// out: its share of the deployment's new size, bounded by what is left.
func ReplicaSetProportion(rs *appsv1.ReplicaSet, d *appsv1.Deployment, toAdd, added int32) int32 {
	if rs == nil || SpecReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	share := replicaSetFraction(rs, d)
	left := toAdd - added
	if toAdd > 0 {
		return min(share, left)
	}
	return max(share, left)
}

// replicaSetFraction is how the ReplicaSet's size would change if it kept its
// share of the deployment, measured against the deployment size it was last
// scaled for (the max-replicas annotation, else status.replicas).
func replicaSetFraction(rs *appsv1.ReplicaSet, d *appsv1.Deployment) int32 {
	if DesiredReplicas(d) == 0 {
		return -SpecReplicas(rs)
	}
	target := DesiredReplicas(d) + MaxSurge(d)
	annotated, ok := AnnotatedReplicas(rs, MaxReplicasAnnotation)
	if !ok {
		annotated = d.Status.Replicas
	}
	if annotated == 0 {
		// Upstream divides by zero here (+Inf, converted to int32); size
		// nothing rather than rely on an implementation-defined conversion.
		return 0
	}
	// int32 product first, as upstream computes it.
	share := float64(SpecReplicas(rs)*target) / float64(annotated)
	return roundToInt32(share) - SpecReplicas(rs)
}

// roundToInt32 rounds half away from zero.
func roundToInt32(x float64) int32 {
	if x < 0 {
		return int32(x - 0.5)
	}
	return int32(x + 0.5)
}
