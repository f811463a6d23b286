package model

import (
	"slices"

	appsv1 "k8s.io/api/apps/v1"
)

// The orders upstream sorts ReplicaSets in. Each is total (the name breaks the
// last tie) and every sort is stable, so a sync is deterministic whatever
// order the cache listed the ReplicaSets in.

// olderFirst orders by creation time, oldest first; equal times by name.
// Nil entries go last.
func olderFirst(a, b *appsv1.ReplicaSet) int {
	if a == nil || b == nil {
		return nilLast(a, b)
	}
	if a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return compareStrings(a.Name, b.Name)
	}
	if a.CreationTimestamp.Before(&b.CreationTimestamp) {
		return -1
	}
	return 1
}

// nilLast orders a nil ReplicaSet after any other.
func nilLast(a, b *appsv1.ReplicaSet) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return 0
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SortByCreationTimestamp sorts oldest first (equal times by name ascending).
func SortByCreationTimestamp(rss []*appsv1.ReplicaSet) {
	slices.SortStableFunc(rss, olderFirst)
}

// SortByCreationTimestampNewestFirst sorts newest first (equal times by name descending).
func SortByCreationTimestampNewestFirst(rss []*appsv1.ReplicaSet) {
	slices.SortStableFunc(rss, func(a, b *appsv1.ReplicaSet) int {
		if a == nil || b == nil {
			return nilLast(a, b)
		}
		return olderFirst(b, a)
	})
}

// SortBySizeNewer sorts the largest spec.replicas first; among equals the
// newer ReplicaSet first. Proportional scale-up hands leftovers to the first.
func SortBySizeNewer(rss []*appsv1.ReplicaSet) {
	slices.SortStableFunc(rss, func(a, b *appsv1.ReplicaSet) int {
		if a == nil || b == nil {
			return nilLast(a, b)
		}
		if SpecReplicas(a) == SpecReplicas(b) {
			return olderFirst(b, a)
		}
		return bigger(a, b)
	})
}

// SortBySizeOlder sorts the largest spec.replicas first; among equals the
// older ReplicaSet first. Proportional scale-down takes leftovers from the first.
func SortBySizeOlder(rss []*appsv1.ReplicaSet) {
	slices.SortStableFunc(rss, func(a, b *appsv1.ReplicaSet) int {
		if a == nil || b == nil {
			return nilLast(a, b)
		}
		if SpecReplicas(a) == SpecReplicas(b) {
			return olderFirst(a, b)
		}
		return bigger(a, b)
	})
}

func bigger(a, b *appsv1.ReplicaSet) int {
	if SpecReplicas(a) > SpecReplicas(b) {
		return -1
	}
	return 1
}

// SortByRevision sorts the lowest revision first; equal or unreadable
// revisions fall back to creation time. Revision-history cleanup deletes from
// the front.
func SortByRevision(rss []*appsv1.ReplicaSet) {
	slices.SortStableFunc(rss, func(a, b *appsv1.ReplicaSet) int {
		if a == nil || b == nil {
			return nilLast(a, b)
		}
		ra, errA := Revision(a)
		rb, errB := Revision(b)
		if errA != nil || errB != nil || ra == rb {
			return olderFirst(a, b)
		}
		if ra < rb {
			return -1
		}
		return 1
	})
}
