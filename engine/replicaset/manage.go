package replicaset

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/control"
	"rollscope/model"
)

// desiredReplicas is spec.replicas, which the API defaults to 1.
func desiredReplicas(o owner) int {
	if r := o.rs.Spec.Replicas; r != nil {
		return int(*r)
	}
	return 1
}

// manageReplicas creates or deletes pods to bring pods (the owner's active
// pods) to spec.replicas, at most burst at a time.
func (c *Controller) manageReplicas(ctx context.Context, o owner, pods claimedPods) error {
	key := ownerKey(o)
	diff := pods.len() - desiredReplicas(o)
	switch {
	case diff < 0:
		n := min(-diff, c.burst)
		// Expect before creating: a synchronous informer may report the new
		// pods before Create even returns.
		c.exp.expectCreations(key, n)
		created, err := slowStart(n, slowStartInitialBatch, func() error {
			err := c.createPod(ctx, o)
			if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
				// Nothing can be created in a namespace being deleted; it is
				// not this owner's failure.
				return nil
			}
			return err
		})
		// Pods never created will never be observed.
		for range n - created {
			c.exp.creationObserved(key)
		}
		return err
	case diff > 0:
		n := min(diff, c.burst)
		victims := c.victims(o, pods, n)
		keys := make([]string, len(victims))
		for i, p := range victims {
			keys[i] = podKey(p)
		}
		c.exp.expectDeletions(key, keys)
		// Upstream deletes in parallel and keeps going after a failure; one
		// after another in victim order gives the same outcome, reproducibly.
		var first error
		for _, p := range victims {
			if err := c.deletePod(ctx, o, p); err != nil {
				c.exp.deletionObserved(key, podKey(p))
				if !apierrors.IsNotFound(err) && first == nil {
					first = err
				}
			}
		}
		return first
	}
	return nil
}

// victims picks n of pods to delete as podsToDelete does, ranking them
// from what the owned index worked out per pod update instead of reading
// every pod again. Pods not in name order with what their ranking reads
// (orphans were adopted) are first put in it and read.
func (c *Controller) victims(o owner, pods claimedPods, n int) []*corev1.Pod {
	if !pods.byName {
		pods = c.inNameOrder(pods.pods)
	}
	out := make([]*corev1.Pod, min(n, len(pods.pods)))
	if n >= len(pods.pods) {
		// Deleting all needs no ranking, as upstream skips it.
		copy(out, pods.pods)
		return out
	}
	onNode := c.familyOnNode(o)
	now := c.env.Clock.Now()
	keys := pods.keys
	for i, node := range pods.nodes {
		var rank int32
		if int(node) < len(onNode) {
			rank = onNode[node]
		}
		keys[i] = keys[i].at(rank, pods.facts[i].readySince, pods.created[i], now, c.gates)
	}
	for i, at := range firstVictims(keys, n, pods.order, pods.majors) {
		out[i] = pods.pods[at]
	}
	return out
}

// inNameOrder reads what the ranking needs of pods, in name order.
func (c *Controller) inNameOrder(pods []*corev1.Pod) claimedPods {
	pods = slices.Clone(pods)
	sortByName(pods)
	out := claimedPods{pods: pods, byName: true}
	for _, p := range pods {
		f := factsOf(p)
		out.facts = append(out.facts, f)
		out.keys = append(out.keys, staticVictimKey(p, f))
		out.nodes = append(out.nodes, c.owned.nodeID(p.Spec.NodeName))
		out.created = append(out.created, p.CreationTimestamp.Time)
	}
	return out
}

// familyOnNode counts the active pods selected by every owner that shares
// o's controller (the ReplicaSets of one Deployment) per node number: a pod's
// rank on scale-down. A standalone owner has no family: its pods are ranked
// on their own merits.
func (c *Controller) familyOnNode(o owner) []int32 {
	ref := metav1.GetControllerOfNoCopy(o.rs)
	if ref == nil {
		return nil
	}
	onNode := make([]int32, c.owned.nodeCount())
	count := func(node int32) {
		for int(node) >= len(onNode) {
			onNode = append(onNode, 0)
		}
		onNode[node]++
	}
	// Upstream lists the namespace with each sibling's selector. The pods
	// such a selector matches are the sibling's own and orphans, so look at
	// exactly those through the owned index and the orphan index instead
	// of scanning. A pod has one controller, so the siblings' own pods never
	// repeat; only an orphan can match several siblings, and only orphans
	// need a note of those already counted.
	orphans, _ := c.env.Listers.PodIndex.ByIndex(control.IndexByController, control.Orphan)
	var seen map[string]bool
	if len(orphans) > 0 {
		seen = make(map[string]bool)
	}
	for _, sibling := range c.kind.controlledBy(string(ref.UID)) {
		sel, err := c.kind.podSelector(sibling.rs)
		if err != nil {
			continue
		}
		match := newLabelMatcher(sel)
		c.owned.podsOf(sibling.rs.UID, sibling.rs.Namespace, match, nil, false, false, func(e *ownedPod, matches bool, _ podFacts) {
			if matches && e.active {
				count(e.node)
			}
		})
		for _, obj := range orphans {
			p, ok := obj.(*corev1.Pod)
			if !ok || p.Namespace != sibling.rs.Namespace || seen[p.Name] || !match.Matches(p.Labels) {
				continue
			}
			seen[p.Name] = true
			if model.IsPodActive(p) {
				count(c.owned.nodeID(p.Spec.NodeName))
			}
		}
	}
	return onNode
}
