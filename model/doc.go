// Package model is rollscope's pure domain: the rollout state derived from
// Kubernetes objects and the rollout arithmetic that upstream controllers and
// kubectl use (fenceposts, availability, revisions, template equality, status
// text). It does no I/O and imports only the Kubernetes API types.
package model
