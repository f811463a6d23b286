// Package drain drains nodes the way `kubectl drain` does, as a controller
// on the cluster's clock: a drain is requested by writing the
// rollscope.dev/drain-request annotation (the options, as JSON) on a node;
// the controller cordons the node, filters its pods with kubectl's rules
// (DaemonSet and mirror pods skipped, unreplicated and emptyDir pods refused
// unless the options allow them), evicts the rest through the Eviction API
// (or deletes them with DisableEviction), retries every 5 s while a
// PodDisruptionBudget refuses with 429, and waits for the pods to go.
//
// All progress lives in rollscope.dev/ annotations on the node — the state,
// the pods left, which budget blocks which pod — so the console can show it
// and a restarted rollscope picks the drain up where it was.
package drain
