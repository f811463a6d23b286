package model

import (
	"fmt"
	"strings"
)

// BudgetHold is one pod a PodDisruptionBudget refuses to let a drain evict:
// an entry of the node's DrainBlockedAnnotation. This file is the one
// spelling of that entry; engine/drain writes it and the blocker line reads it.
type BudgetHold struct {
	Pod string // namespace/name
	// Namespace and Name are the budget's; Allowed, Healthy and Needed its
	// status (disruptionsAllowed, currentHealthy, desiredHealthy).
	Namespace, Name          string
	Allowed, Healthy, Needed int32
}

// String is the annotation entry: "ns/pod: PodDisruptionBudget ns/name
// allows 0 disruptions (6 healthy, 6 needed)".
func (h BudgetHold) String() string {
	return h.Pod + ": " + h.Budget()
}

// Budget is the entry without its pod.
func (h BudgetHold) Budget() string {
	return fmt.Sprintf("PodDisruptionBudget %s/%s allows %d disruptions (%d healthy, %d needed)",
		h.Namespace, h.Name, h.Allowed, h.Healthy, h.Needed)
}

// ParseBudgetHold reads one annotation entry; entries that name no budget
// (an eviction refused before the budget reached the cache) are not holds.
func ParseBudgetHold(s string) (BudgetHold, bool) {
	pod, rest, ok := strings.Cut(strings.TrimSpace(s), ": ")
	if !ok {
		return BudgetHold{}, false
	}
	h := BudgetHold{Pod: pod}
	var ref string
	if _, err := fmt.Sscanf(rest, "PodDisruptionBudget %s allows %d disruptions (%d healthy, %d needed)",
		&ref, &h.Allowed, &h.Healthy, &h.Needed); err != nil {
		return BudgetHold{}, false
	}
	if h.Namespace, h.Name, ok = strings.Cut(ref, "/"); !ok {
		return BudgetHold{}, false
	}
	return h, true
}
