package nodegroup

import (
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// GroupOf returns the name of the node's instance group, or "" for a node
// that belongs to none.
func GroupOf(node *corev1.Node) string {
	return node.Labels[model.NodeGroupLabel]
}
