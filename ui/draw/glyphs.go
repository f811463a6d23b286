package draw

import "rollscope/model"

// PodGlyphs gives every pod state its own shape, so the grid reads without
// colour (NO_COLOR, colour blindness, a monochrome capture-pane).
var PodGlyphs = [...]string{
	model.PodPending:     "○",
	model.PodCreating:    "◌",
	model.PodNotReady:    "◐",
	model.PodReady:       "●",
	model.PodCrashLoop:   "✖",
	model.PodTerminating: "▽",
	model.PodFailed:      "✗",
}

// PodStateNames say what each glyph means, for the help overlay's legend.
var PodStateNames = [...]string{
	model.PodPending:     "pending",
	model.PodCreating:    "creating",
	model.PodNotReady:    "not ready",
	model.PodReady:       "ready",
	model.PodCrashLoop:   "crash loop / pull back-off",
	model.PodTerminating: "terminating",
	model.PodFailed:      "failed / exited",
}

// StateIndex keeps an unknown state from indexing out of range.
func StateIndex(s model.PodState) int {
	if s < 0 || int(s) >= len(PodGlyphs) {
		return int(model.PodPending)
	}
	return int(s)
}
