package cluster

import (
	"maps"
	"slices"
)

// PodsNeeded is whose pods the fleet's rows need, for a console that
// watches pods only where it must (WatchStatus.PodsNarrowed): every
// namespace's while pods are being moved off a node (a drain, a node roll,
// a cordon — which any workload's pods may be on), else those of the
// namespaces a pod's Warning event was seen in. Each state a row takes from
// its pods has such an event behind it: the kubelet's BackOff for a crash
// loop, its Failed and BackOff for an image that cannot be pulled, the
// scheduler's FailedScheduling for pods that fit nowhere. The events are
// the trigger and the pods the evidence: a row reads the pods as they are,
// so a pod that recovered is not called crash-looping on an old event's say.
func (c *Cluster) PodsNeeded() (all bool, namespaces []string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	b := c.fleetBook
	if len(b.movingNodes) > 0 || len(b.blockedNodes) > 0 {
		return true, nil
	}
	return false, slices.Sorted(maps.Keys(b.warned))
}

// AwaitPods says the console has asked for the namespace's pods, or every
// pod ("") — for a page that reads them: until the watch says it holds
// them, Watch reports the picture as listing its pods, as before the first
// list — from the frame the page opens on, not only from the watch's next
// batch.
func (c *Cluster) AwaitPods(namespace string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.awaitedNamespace = namespace
	c.awaitingPods = lacksPods(c.watch, namespace)
}

// lacksPods reports whether a picture of watch w lacks the namespace's
// pods, or some pod at all for "".
func lacksPods(w WatchStatus, namespace string) bool {
	if namespace == "" {
		return w.PodsNarrowed
	}
	return !w.HoldsPods(namespace)
}
