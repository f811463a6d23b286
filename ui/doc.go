// Package ui is rollscope's console: a Bubble Tea v2 program that renders
// one Deployment's rollout — header, headroom bars, ReplicaSets with a pod
// glyph grid, pods, nodes, revision history and a timeline — from the plain
// views of package model, and sends what its keys ask for through Actions.
//
// The root Model is thin: it owns the focus, the global keys and the
// layout, applies cluster.Batch messages to its Source, and routes every
// other message: keys to the open overlay, else to the RC view's own keys,
// else to the global keys, else to the focused pane. The parts live in
// packages of their own:
//
//	screen/    what every part shares: the views read in Update, the styles,
//	           the keys, the footer's toast, and the one request runner
//	           every action is sent through
//	keys/      the key map as data, one binding per action of model/action's
//	           spec table; the config file rebinds it by name
//	draw/      how lines are drawn: fit, wrap, columns, paints, the row list
//	panes/     replicasets, pods, nodes, history, timeline
//	overlays/  picker, help, rolloutdialog, nodedialog, rcview (with its
//	           rcdialog)
//
// Every pane and overlay honours the same contract (screen.Component).
// Rendering reads only the views fetched in Update, so View does no I/O, and
// lists render only their visible rows.
package ui
