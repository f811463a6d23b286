package ui

import "rollscope/model"

// podGlyphs gives every pod state its own shape, so the grid reads without
// colour (NO_COLOR, colour blindness, a monochrome capture-pane).
var podGlyphs = [...]string{
	model.PodPending:     "○",
	model.PodCreating:    "◌",
	model.PodNotReady:    "◐",
	model.PodReady:       "●",
	model.PodCrashLoop:   "✖",
	model.PodTerminating: "▽",
	model.PodFailed:      "✗",
}

var podStateNames = [...]string{
	model.PodPending:     "pending",
	model.PodCreating:    "creating",
	model.PodNotReady:    "not ready",
	model.PodReady:       "ready",
	model.PodCrashLoop:   "crash loop / pull back-off",
	model.PodTerminating: "terminating",
	model.PodFailed:      "failed / exited",
}

// stateIndex keeps an unknown state from indexing out of range.
func stateIndex(s model.PodState) int {
	if s < 0 || int(s) >= len(podGlyphs) {
		return int(model.PodPending)
	}
	return int(s)
}
