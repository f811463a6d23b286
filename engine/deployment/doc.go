// Package deployment is the embedded Deployment controller: it rolls a
// Deployment's pods from one ReplicaSet to the next the way
// kube-controller-manager's deployment controller does — rolling updates
// within maxSurge and maxUnavailable, Recreate, proportional scaling while a
// rollout is in flight or paused, the legacy rollback annotation, revision
// numbering and history cleanup, and the Progressing and Available conditions
// with their progress deadline.
//
// The arithmetic lives in rollscope/model; this package is the controller
// around it: it claims ReplicaSets, issues the same API writes in the same
// order as upstream, and records the same events. Given its listers and its
// clock it is deterministic: wherever upstream walks a cache or a map, this
// controller walks a sorted list.
package deployment
