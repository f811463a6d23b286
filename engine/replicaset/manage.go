package replicaset

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/control"
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
func (c *Controller) manageReplicas(ctx context.Context, o owner, pods []*corev1.Pod) error {
	key := ownerKey(o)
	diff := len(pods) - desiredReplicas(o)
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
		// Victims are ranked from a fixed (name) order, so that ties, and a
		// delete-everything that is not ranked at all, are reproducible.
		pods = slices.Clone(pods)
		sortByName(pods)
		victims := podsToDelete(pods, c.familyPods(o), n, c.env.Clock.Now(), c.gates)
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

// familyPods returns the pods selected by every owner that shares o's
// controller (the ReplicaSets of one Deployment), each once. A standalone
// owner has no family: its pods are ranked on their own merits.
func (c *Controller) familyPods(o owner) []*corev1.Pod {
	ref := metav1.GetControllerOfNoCopy(o.rs)
	if ref == nil {
		return nil
	}
	// Upstream lists the namespace with each sibling's selector. The pods
	// such a selector matches are the sibling's own and orphans, so look at
	// exactly those through the owned index and the orphan index instead
	// of scanning. A pod has one controller, so the siblings' own pods never repeat; only
	// an orphan can match several siblings, and only orphans need a note of
	// those already taken — not every pod of a 100,000-replica family.
	orphans, _ := c.env.Listers.PodIndex.ByIndex(control.IndexByController, control.Orphan)
	var seen map[string]bool
	if len(orphans) > 0 {
		seen = make(map[string]bool)
	}
	var out []*corev1.Pod
	for _, sibling := range c.kind.controlledBy(string(ref.UID)) {
		sel, err := c.kind.podSelector(sibling.rs)
		if err != nil {
			continue
		}
		match := newLabelMatcher(sel)
		c.owned.podsOf(sibling.rs.UID, sibling.rs.Namespace, match, nil, false, func(p *corev1.Pod, matches bool, _ podFacts) {
			if matches {
				out = append(out, p)
			}
		})
		for _, obj := range orphans {
			p, ok := obj.(*corev1.Pod)
			if !ok || p.Namespace != sibling.rs.Namespace || seen[p.Name] || !match.Matches(p.Labels) {
				continue
			}
			seen[p.Name] = true
			out = append(out, p)
		}
	}
	return out
}
