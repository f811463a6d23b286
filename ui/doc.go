// Package ui is rollscope's console: a Bubble Tea v2 program that renders
// one Deployment's rollout — header, headroom bars, ReplicaSets with a pod
// glyph grid, pods, nodes, revision history and a timeline — from the plain
// views of package model.
//
// The root Model is thin: it owns the focus, the global keys, the help
// overlay and the deployment picker, applies model.Batch messages to its
// Source, and hands every other message to the focused pane. Every pane
// honours the same contract (Pane). Rendering reads only the views fetched
// in Update, so View does no I/O, and lists render only their visible rows.
package ui
