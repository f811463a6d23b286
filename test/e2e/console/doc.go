// Package console runs the real rollscope console in tmux against a real
// Kubernetes control plane (controlplane) with hollow nodes (engine/live):
// the watch layer, the rollout keys, a view-only user and an API server
// that goes away in the middle of a rollout. One control plane serves the
// whole package; each flow works in a namespace of its own.
package console
