// Package model is the rollout arithmetic rollscope's engine and console
// share, as upstream controllers and kubectl do it: fenceposts,
// availability, revisions, hashes, template equality, conditions, the
// `kubectl rollout status` sentence, the canary plan and its gates, the
// node drain and roll wire format, input checks, undo and the
// ReplicationController rolling update. It does no I/O, keeps no state and
// imports only the Kubernetes API types. The console's picture of the
// cluster built on these rules is package model/cluster.
package model
