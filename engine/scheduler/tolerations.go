package scheduler

import (
	corev1 "k8s.io/api/core/v1"
)

// tolerates reports whether the toleration t lets a pod onto a node with taint.
// An empty key with operator Exists tolerates every taint; an empty effect
// matches every effect; operator "" means Equal. The alpha numeric operators
// (Gt, Lt) are off by default upstream and tolerate nothing here.
func tolerates(t *corev1.Toleration, taint *corev1.Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", corev1.TolerationOpEqual:
		return t.Value == taint.Value
	case corev1.TolerationOpExists:
		return true
	default:
		return false
	}
}

func toleratedBy(ts []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range ts {
		if tolerates(&ts[i], taint) {
			return true
		}
	}
	return false
}

// firstUntolerated returns the first taint, in the node's order, with one of
// effects that no toleration covers, or nil.
func firstUntolerated(taints []corev1.Taint, ts []corev1.Toleration, effects ...corev1.TaintEffect) *corev1.Taint {
	for i := range taints {
		t := &taints[i]
		for _, e := range effects {
			if t.Effect == e && !toleratedBy(ts, t) {
				return t
			}
		}
	}
	return nil
}

// countUntolerated counts the taints with effect that no toleration covers.
func countUntolerated(taints []corev1.Taint, ts []corev1.Toleration, effect corev1.TaintEffect) int {
	n := 0
	for i := range taints {
		if taints[i].Effect == effect && !toleratedBy(ts, &taints[i]) {
			n++
		}
	}
	return n
}
