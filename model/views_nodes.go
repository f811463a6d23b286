package model

import (
	"cmp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Nodes is the node list, by group then name.
//
// A node is up to date when its node-spec annotation is its group's newest
// spec. The cluster does not say what a group's spec is, so the newest spec
// is the one the group's most recently created nodes carry: among the nodes
// with the latest creation time (to the second, as the API keeps it), the
// spec most of them carry, the greatest one on a tie. A node without the
// annotation, or in a group where no node has one, cannot be judged and
// counts as up to date. A node marked kops.k8s.io/needs-update (kops marks
// outdated nodes, and so do rollscope's node groups) is outdated whatever
// its annotation says: that is how a group's target spec reaches the console
// before a roll has created any node from it.
func (c *Cluster) Nodes() []NodeRow {
	c.mu.RLock()
	defer c.mu.RUnlock()
	newest := newestSpecs(c.nodes)
	rows := make([]NodeRow, 0, len(c.nodes))
	for _, n := range c.nodes {
		group := n.Labels[NodeGroupLabel]
		spec, hasSpec := n.Annotations[NodeSpecAnnotation]
		_, needsUpdate := n.Annotations[NeedsUpdateAnnotation]
		rows = append(rows, NodeRow{
			Name:        n.Name,
			Group:       group,
			Ready:       NodeReady(n),
			Schedulable: !n.Spec.Unschedulable,
			Taints:      taints(n),
			Pods:        c.activePodsOn(n.Name),
			UpToDate:    !needsUpdate && (!hasSpec || newest[group] == "" || spec == newest[group]),
			Drain:       n.Annotations[DrainStateAnnotation],
			Progress:    nodeProgress(n),
		})
	}
	slices.SortFunc(rows, func(a, b NodeRow) int {
		return cmp.Or(strings.Compare(a.Group, b.Group), strings.Compare(a.Name, b.Name))
	})
	return rows
}

// newestSpecs is each group's newest spec, by the rule Nodes documents.
func newestSpecs(nodes map[string]*corev1.Node) map[string]string {
	type newestNodes struct {
		at     int64          // creation time of the group's newest nodes, Unix seconds
		counts map[string]int // how many of them carry each spec
	}
	groups := map[string]*newestNodes{}
	for _, n := range nodes {
		spec, ok := n.Annotations[NodeSpecAnnotation]
		if !ok || spec == "" {
			continue
		}
		group := n.Labels[NodeGroupLabel]
		at := n.CreationTimestamp.Unix()
		g := groups[group]
		if g == nil || at > g.at {
			g = &newestNodes{at: at, counts: map[string]int{}}
			groups[group] = g
		}
		if at == g.at {
			g.counts[spec]++
		}
	}
	out := make(map[string]string, len(groups))
	for group, g := range groups {
		var best string
		for spec, n := range g.counts {
			if n > g.counts[best] || (n == g.counts[best] && spec > best) {
				best = spec
			}
		}
		out[group] = best
	}
	return out
}

// activePodsOn counts the pods bound to the node that still run or will.
func (c *Cluster) activePodsOn(node string) int {
	n := 0
	for key := range c.podsByNode[node] {
		if pe := c.pods[key]; pe != nil && IsPodActive(pe.pod) {
			n++
		}
	}
	return n
}

// taints are written as kubectl describe writes them: "key=value:Effect",
// or "key:Effect" when the taint has no value.
func taints(n *corev1.Node) []string {
	if len(n.Spec.Taints) == 0 {
		return nil
	}
	out := make([]string, 0, len(n.Spec.Taints))
	for _, t := range n.Spec.Taints {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		out = append(out, s+":"+string(t.Effect))
	}
	return out
}
