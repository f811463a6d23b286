package argo

import "math"

// Argo's replica arithmetic for the basic canary (no traffic router),
// ported from utils/replicaset/canary.go (v1.10): how many pods the canary
// and the stable ReplicaSets get at each sync. Without a traffic router
// Argo ignores setCanaryScale (UseSetCanaryScale) and dynamicStableScale,
// so the weight is the last setWeight at or before the current step.

// maxTrafficWeight is Argo's weight scale without a traffic router.
const maxTrafficWeight = 100

// ReplicaSetCount is a ReplicaSet as Argo's arithmetic reads it: its name
// (the canary and stable sets are one when their names are), spec.replicas
// and status.availableReplicas.
type ReplicaSetCount struct {
	Name      string
	Spec      int32
	Available int32
}

// CurrentStep is the canary step at status.currentStepIndex and that index
// (GetCurrentCanaryStep): nil, nil without steps; nil and the index past
// the last step.
func CurrentStep(r *Rollout) (*CanaryStep, *int32) {
	c := r.Spec.Strategy.Canary
	if c == nil || len(c.Steps) == 0 {
		return nil, nil
	}
	i := int32(0)
	if r.Status.CurrentStepIndex != nil {
		i = *r.Status.CurrentStepIndex
	}
	if int(i) >= len(c.Steps) {
		return nil, &i
	}
	return &c.Steps[i], &i
}

// CurrentSetWeight is the weight the canary steps ask for now
// (GetCurrentSetWeight): 0 once aborted, 100 past the last step, else the
// last setWeight at or before the current step (0 before any).
func CurrentSetWeight(r *Rollout) int32 {
	if r.Status.Abort {
		return 0
	}
	step, i := CurrentStep(r)
	if step == nil {
		return maxTrafficWeight
	}
	for j := *i; j >= 0; j-- {
		if w := r.Spec.Strategy.Canary.Steps[j].SetWeight; w != nil {
			return *w
		}
	}
	return 0
}

// desiredWeight is GetCanaryReplicasOrWeight without a traffic router: all
// of it when promoted fully, with no stable set yet, or when the stable set
// is the one rolled to.
func desiredWeight(r *Rollout) int32 {
	if r.Status.PromoteFull || r.Status.StableRS == "" || r.Status.CurrentPodHash == r.Status.StableRS {
		return maxTrafficWeight
	}
	return CurrentSetWeight(r)
}

// BasicCanaryReplicaCounts is CalculateReplicaCountsForBasicCanary: the
// replicas Argo's controller gives the canary (newRS) and the stable set
// at this sync, within maxSurge and maxUnavailable, older sets scaled down
// first. newRS or stableRS may be nil; older holds the other sets with
// replicas.
func BasicCanaryReplicaCounts(r *Rollout, newRS, stableRS *ReplicaSetCount, older []*ReplicaSetCount) (newCount, stableCount int32) {
	replicas := replicasOrDefault(r)
	weight := desiredWeight(r)
	maxSurge := MaxSurge(r)
	desiredNew, desiredStable := ApproximateWeightedCounts(replicas, weight, maxTrafficWeight, maxSurge)

	if newRS != nil {
		newCount = newRS.Spec
	}
	scaleStable := stableRS != nil && (newRS == nil || newRS.Name != stableRS.Name)
	if scaleStable {
		stableCount = stableRS.Spec
	} else {
		// Without a separate stable set the canary steps do not apply:
		// the new set goes to all of it.
		desiredNew, desiredStable = replicas, 0
	}
	maxAllowed := replicas + maxSurge
	total := specSum(older) + specSum([]*ReplicaSetCount{newRS})
	if scaleStable {
		total += stableRS.Spec
	}
	scaleUp := maxAllowed - total

	if scaleStable && stableRS.Spec < desiredStable && scaleUp > 0 {
		if stableRS.Spec+scaleUp < desiredStable {
			stableCount = stableRS.Spec + scaleUp
			scaleUp = 0
		} else {
			stableCount = desiredStable
			scaleUp -= desiredStable - stableRS.Spec
		}
	}
	if newRS != nil && newRS.Spec < desiredNew && scaleUp > 0 {
		newCount = min(newRS.Spec+scaleUp, desiredNew)
	}
	if specSum(older) > 0 {
		// Older sets are scaled down first.
		return newCount, stableCount
	}

	minAvailable := replicas - MaxUnavailable(r)
	// Growing the canary, the stable set's availability may be spent;
	// shrinking it (an abort), the canary's.
	increasing := newRS == nil || desiredNew >= newRS.Spec
	toScaleDown := forScaleDown(newRS, !increasing) + forScaleDown(stableRS, increasing)
	if toScaleDown <= minAvailable {
		return newCount, stableCount
	}
	scaleDown := toScaleDown - minAvailable
	if !increasing {
		newCount = scaleDownCount(newRS, desiredNew, scaleDown, newCount)
		newCount, stableCount = withinLimits(newRS, stableRS, newCount, stableCount, maxAllowed, minAvailable)
	} else if scaleStable {
		stableCount = scaleDownCount(stableRS, desiredStable, scaleDown, stableCount)
		stableCount, newCount = withinLimits(stableRS, newRS, stableCount, newCount, maxAllowed, minAvailable)
	}
	return newCount, stableCount
}

func specSum(sets []*ReplicaSetCount) int32 {
	n := int32(0)
	for _, rs := range sets {
		if rs != nil {
			n += rs.Spec
		}
	}
	return n
}

// forScaleDown is GetReplicasForScaleDown.
func forScaleDown(rs *ReplicaSetCount, ignoreAvailability bool) int32 {
	switch {
	case rs == nil:
		return 0
	case rs.Spec < rs.Available, ignoreAvailability:
		return rs.Spec
	}
	return rs.Available
}

// scaleDownCount is calculateScaleDownReplicaCount.
func scaleDownCount(drain *ReplicaSetCount, desired, scaleDown, count int32) int32 {
	if drain != nil && drain.Spec > desired {
		return max(desired, drain.Spec-scaleDown)
	}
	return count
}

// withinLimits is adjustReplicaWithinLimits.
func withinLimits(drain, adjust *ReplicaSetCount, drainCount, adjustCount, maxAllowed, minAvailable int32) (int32, int32) {
	over := max(0, adjustCount+drainCount-maxAllowed)
	available := int32(0)
	if drain != nil {
		available += min(drain.Available, drainCount)
	}
	if adjust != nil {
		adjustCount -= over
		available += min(adjust.Available, adjustCount)
		extra := max(0, adjust.Available-adjustCount)
		need := max(0, minAvailable-available)
		adjustCount += min(extra, need)
		over = max(0, adjustCount+drainCount-maxAllowed)
		drainCount -= over
	}
	return drainCount, adjustCount
}

// ApproximateWeightedCounts is approximateWeightedCanaryStableReplicaCounts:
// the canary and stable counts whose ratio comes closest to weight of
// maxWeight, trying replicas and, with a surge, replicas+1 pods in all. A
// weight strictly between 0 and all gets at least one canary pod once there
// are two pods to share it.
func ApproximateWeightedCounts(replicas, weight, maxWeight, maxSurge int32) (canary, stable int32) {
	if replicas == 0 {
		return 0, 0
	}
	type option struct{ canary, total int32 }
	var options []option
	ceil := int32(math.Ceil(float64(replicas*weight) / float64(maxWeight)))
	floor := int32(math.Floor(float64(replicas*weight) / float64(maxWeight)))
	tied := floorCeilingTied(weight, maxWeight, replicas)
	zeroAllowed := weight == maxWeight || weight == 0 || (replicas == 1 && maxSurge == 0)
	if ceil < replicas || zeroAllowed {
		options = append(options, option{ceil, replicas})
	}
	if !tied && (floor != 0 || zeroAllowed) {
		options = append(options, option{floor, replicas})
	}
	if maxSurge > 0 {
		options = append(options, option{ceil, replicas + 1})
		if !floorCeilingTied(weight, maxWeight, replicas+1) && (floor != 0 || zeroAllowed) {
			options = append(options, option{floor, replicas + 1})
		}
	}
	if len(options) == 0 {
		return 0, replicas
	}
	best := options[0]
	bestDelta := weightDelta(weight, maxWeight, best.canary, best.total)
	for _, o := range options[1:] {
		if d := weightDelta(weight, maxWeight, o.canary, o.total); d < bestDelta {
			best, bestDelta = o, d
		}
	}
	return best.canary, best.total - best.canary
}

func floorCeilingTied(weight, maxWeight, total int32) bool {
	_, frac := math.Modf(float64(total) * (float64(weight) / float64(maxWeight)))
	return frac == 0.5
}

func weightDelta(weight, maxWeight, canary, total int32) float64 {
	return math.Abs(float64(canary*maxWeight)/float64(total) - float64(weight))
}
