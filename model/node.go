package model

import corev1 "k8s.io/api/core/v1"

// NodeReady reports whether the node's Ready condition is True, as kubectl
// get nodes shows it: a node without a Ready condition is not ready. The
// console, the scheduler, the kubelet, node-roll validation and traces all
// judge a node by this one rule.
func NodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// NodeDetached reports whether the node carries DetachedAnnotation "true":
// its group no longer counts it and has launched its replacement.
func NodeDetached(n *corev1.Node) bool {
	return n.Annotations[DetachedAnnotation] == "true"
}

// NodeEvicting reports whether a drain or a node roll is under way on n: a
// drain asked for or started and not over, or n in a roll with work left.
// Any pod on it may be evicted at any moment, whatever else is rolling.
func NodeEvicting(n *corev1.Node) bool {
	p := NodeProgressOf(n)
	if state := n.Annotations[DrainStateAnnotation]; (p.DrainRequested || state != "") && !DrainOver(state) {
		return true
	}
	return p.Roll.State != "" && p.Roll.Active()
}
