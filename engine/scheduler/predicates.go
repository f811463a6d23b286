package scheduler

import corev1 "k8s.io/api/core/v1"

// The filters the DaemonSet controller shares with kube-scheduler: upstream's
// daemon controller asks the NodeAffinity and TaintToleration plugins whether a
// node may run a daemon pod, so rollscope's daemon controller asks the same
// code the embedded scheduler filters with.

// FitsNodeChoice reports whether node satisfies the pod's nodeSelector and
// required node affinity (labels and metadata.name fields).
func FitsNodeChoice(p *corev1.Pod, node *corev1.Node) bool {
	return newNodeChoice(p).matches(node)
}

// UntoleratedTaint returns the first of the node's taints, in the node's
// order, with one of effects that the tolerations do not cover, or nil.
func UntoleratedTaint(taints []corev1.Taint, tolerations []corev1.Toleration, effects ...corev1.TaintEffect) *corev1.Taint {
	return firstUntolerated(taints, tolerations, effects...)
}
