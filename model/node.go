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
