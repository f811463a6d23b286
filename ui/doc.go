// Package ui is rollscope's console: a Bubble Tea v2 program that shows the
// fleet of workloads and one workload's rollout — for a Deployment the
// header, headroom bars, ReplicaSets with a pod glyph grid, pods, nodes,
// revision history and a timeline — from the plain views of package model,
// and sends what its keys ask for through Actions.
//
// The root Model is thin: it keeps a stack of pages (screen.Page) and
// routes keys, sizes and redraws to the one on top without knowing which
// it holds; it draws the watch banner and the footer, keeps the overlay
// open over the page, handles the console's own keys (help, the command
// line, the fleet, the scope, the embedded clock), holds the clock while a
// dialog that writes is open, paces redraws and keeps the frame drawn
// last. A page asks it for the rest through the Screen: another target to
// show (Go), an overlay to open (Show), a global key left for it (Global).
// The parts live in packages of their own:
//
//	screen/    what every part shares: the views read in Update, the styles,
//	           the keys, the footer's toast, the page and component
//	           contracts, and the one request runner every action is sent
//	           through
//	keys/      the key map as data, one binding per action of model/action's
//	           spec table; the config file rebinds it by name
//	draw/      how lines are drawn: fit, wrap, columns, paints, the row
//	           list, the memo of lines drawn every frame
//	pages/     fleet (the home page), rollout (a Deployment's header and
//	           panes), rc and workload (a ReplicationController's, a
//	           StatefulSet's or DaemonSet's view, over the rollout page)
//	panes/     replicasets, pods, nodes, history, timeline
//	overlays/  picker, help, rolloutdialog, canarydialog, nodedialog,
//	           rcdialog, poddetail, logs
//
// Every page honours screen.Page and every pane and overlay the same
// component contract (screen.Component); each package is tested alone on
// the hand-made sources of internal/uitest. Rendering reads only the views
// fetched in Update, so View does no I/O, and lists render only their
// visible rows.
//
// # Frames
//
// A batch from the watch (cluster.Batch) is applied to the read model at
// once; with Options.Pace set (250 ms in the console; FleetPace, a second,
// while the fleet is shown alone) the views are read again and the screen
// redrawn at most once a Pace while the watch churns (pace.go). What an operator waits for is not held back: a deployment
// finishing, failing its deadline, pausing or resuming, and the watch
// failing or recovering, refresh at once. A batch that changed nothing, or
// one held back until the end of the Pace, leaves the frame drawn last,
// which View returns without drawing it again;
// the once-a-second tick (ages, the clock) refreshes only when no paced
// refresh came in the last second. Lines drawn on every frame — pane
// titles, the footer, the headroom bars — are kept by what they show
// (draw.Memo). Frames reach the terminal through package terminal, which
// writes only the lines that changed; Bubble Tea reads the keys and runs
// the model, and its own renderer is off.
//
// The embedded cluster runs in its own goroutine and is watched through
// client-go reflectors exactly as a live cluster is; only the clock keys
// (+, -, space) reach into it, through EmbeddedControls.
package ui
