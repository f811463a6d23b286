package noderoll

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/control"
	"rollscope/model"
)

// validate is the cluster check kops runs between nodes, in rollscope's
// terms: every node Ready, the rolling group back at its size in Ready
// nodes (not counting detached nodes or nodes the roll left drained), and
// every Deployment and standalone ReplicaSet with all its pods available.
// It returns "" when the cluster validates, else the first reason it does not.
func validate(l control.Listers, nodes []*corev1.Node, sp spec) string {
	all, err := l.Nodes.List(labels.Everything())
	if err != nil {
		return "cannot list the nodes: " + err.Error()
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	for _, n := range all {
		if !model.NodeReady(n) {
			return fmt.Sprintf("node %s is not Ready", n.Name)
		}
	}
	capacity := 0
	for _, n := range nodes {
		if model.NodeReady(n) && !model.NodeDetached(n) && n.Annotations[model.RollNodeAnnotation] != model.RollStepDrained {
			capacity++
		}
	}
	if capacity < sp.Size {
		return fmt.Sprintf("group %s has %d of %d nodes Ready (waiting for replacements)", sp.Group, capacity, sp.Size)
	}
	ds, err := l.Deployments.List(labels.Everything())
	if err != nil {
		return "cannot list the deployments: " + err.Error()
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].Namespace+"/"+ds[i].Name < ds[j].Namespace+"/"+ds[j].Name })
	for _, d := range ds {
		want := int32(1)
		if d.Spec.Replicas != nil {
			want = *d.Spec.Replicas
		}
		if d.Status.AvailableReplicas < want {
			return fmt.Sprintf("deployment %s/%s has %d of %d pods available", d.Namespace, d.Name, d.Status.AvailableReplicas, want)
		}
	}
	rss, err := l.ReplicaSets.List(labels.Everything())
	if err != nil {
		return "cannot list the replica sets: " + err.Error()
	}
	sort.Slice(rss, func(i, j int) bool { return rss[i].Namespace+"/"+rss[i].Name < rss[j].Namespace+"/"+rss[j].Name })
	for _, rs := range rss {
		if len(rs.OwnerReferences) > 0 {
			continue // its Deployment answers for it
		}
		want := int32(1)
		if rs.Spec.Replicas != nil {
			want = *rs.Spec.Replicas
		}
		if rs.Status.AvailableReplicas < want {
			return fmt.Sprintf("replicaset %s/%s has %d of %d pods available", rs.Namespace, rs.Name, rs.Status.AvailableReplicas, want)
		}
	}
	return ""
}
