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

// UpToDate reports whether the node was created from its group's current
// Spec. A node of no known group is up to date: no group roll replaces it.
func UpToDate(node *corev1.Node, groups []Group) bool {
	name := GroupOf(node)
	for i := range groups {
		if groups[i].Name == name {
			return node.Annotations[model.NodeSpecAnnotation] == groups[i].Spec
		}
	}
	return true
}

func detached(node *corev1.Node) bool {
	return node.Annotations[model.DetachedAnnotation] == "true"
}
