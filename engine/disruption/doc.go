// Package disruption is the embedded disruption controller: it keeps each
// PodDisruptionBudget's status (expected, healthy and desired pods, how many
// disruptions are allowed, and the DisruptionAllowed condition) current, as
// kube-controller-manager's disruption controller does. The eviction
// subresource of the API reads that status to decide whether an eviction
// (a drain, a node roll) may go ahead, and records each eviction it grants in
// status.disruptedPods; this controller counts those pods as unhealthy until
// they are gone, and drops entries that are stale.
package disruption
