package noderoll

import (
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// Busy reports whether a roll or a drain is still under way on the node:
// a roll that is running, paused or waiting for the operator, or a drain
// requested and neither drained nor failed. A full-speed simulation does not
// end while any node is busy.
func Busy(n *corev1.Node) bool {
	if active, _ := activeRoll([]*corev1.Node{n}); active {
		return true
	}
	if _, ok := n.Annotations[model.DrainRequestAnnotation]; ok {
		return !model.DrainOver(n.Annotations[model.DrainStateAnnotation])
	}
	return false
}
