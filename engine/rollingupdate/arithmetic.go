package rollingupdate

import (
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
)

// Limits are an update's resolved bounds (see model.RCLimits).
type Limits = model.RCLimits

// NewLimits resolves maxSurge and maxUnavailable the legacy updater's way.
func NewLimits(desired, oldReplicas int32, maxSurge, maxUnavailable intstr.IntOrString) (Limits, error) {
	return model.NewRCLimits(desired, oldReplicas, maxSurge, maxUnavailable)
}

// Move is one scaling decision.
type Move int

// The moves of a rollout step.
const (
	// Hold: nothing to scale now (waiting for readiness).
	Hold Move = iota
	// ScaleNext scales the next controller up to To.
	ScaleNext
	// ScaleOld scales the old controller down to To.
	ScaleOld
	// Complete: the next controller has the desired size and the old none.
	Complete
)

// Decision is what Next decided.
type Decision struct {
	Move Move
	To   int32
}

// Availability counts the next controller's available pods. It is asked
// only when a scale-down is being considered, as upstream asks (upstream
// counts the old controller's too, and does not use them).
type Availability func() (nextAvailable int32, err error)

// Next decides the rollout step for the current sizes: scale the next
// controller up when the ceiling allows, else scale the old one down as far
// as availability allows. Applied repeatedly, with a wait after each
// scale-up, it makes the same calls in the same order as the legacy
// updater's loop (scale up, wait the update period, scale down).
func Next(l Limits, oldSize, nextSize int32, available Availability) (Decision, error) {
	if nextSize == l.Desired && oldSize == 0 {
		return Decision{Move: Complete}, nil
	}
	if to, ok := scaleUpTo(l, oldSize, nextSize); ok {
		return Decision{Move: ScaleNext, To: to}, nil
	}
	if oldSize == 0 {
		return Decision{Move: Hold}, nil
	}
	nextAvailable, err := available()
	if err != nil {
		return Decision{}, err
	}
	if to, ok := scaleDownTo(l, oldSize, nextSize, nextAvailable); ok {
		return Decision{Move: ScaleOld, To: to}, nil
	}
	return Decision{Move: Hold}, nil
}

// scaleUpTo is the legacy scale-up: fill up to desired + maxSurge pods, or
// straight to desired once the old controller is empty.
func scaleUpTo(l Limits, oldSize, nextSize int32) (int32, bool) {
	if nextSize == l.Desired {
		return 0, false
	}
	increment := l.Ceiling() - (oldSize + nextSize)
	if oldSize == 0 {
		increment = l.Desired - nextSize
	}
	if increment <= 0 {
		return 0, false
	}
	return min(nextSize+increment, l.Desired), true
}

// scaleDownTo is the legacy scale-down: remove as many old pods as keeps
// minAvailable, not counting next pods that are not yet available.
func scaleDownTo(l Limits, oldSize, nextSize, nextAvailable int32) (int32, bool) {
	decrement := (oldSize + nextSize) - l.MinAvailable - (nextSize - nextAvailable)
	if decrement <= 0 {
		return 0, false
	}
	to := max(0, oldSize-decrement)
	if nextSize == l.Desired && nextAvailable == l.Desired {
		to = 0
	}
	return to, true
}
