package draw

import (
	"rollscope/model/cluster"
)

// PodGlyphs gives every pod state its own shape, so the grid reads without
// colour (NO_COLOR, colour blindness, a monochrome capture-pane).
var PodGlyphs = [...]string{
	cluster.PodPending:     "○",
	cluster.PodCreating:    "◌",
	cluster.PodNotReady:    "◐",
	cluster.PodReady:       "●",
	cluster.PodCrashLoop:   "✖",
	cluster.PodTerminating: "▽",
	cluster.PodFailed:      "✗",
}

// PodStateNames say what each glyph means, for the help overlay's legend.
var PodStateNames = [...]string{
	cluster.PodPending:     "pending",
	cluster.PodCreating:    "creating",
	cluster.PodNotReady:    "not ready",
	cluster.PodReady:       "ready",
	cluster.PodCrashLoop:   "crash loop / pull back-off",
	cluster.PodTerminating: "terminating",
	cluster.PodFailed:      "failed / exited",
}

// StateIndex keeps an unknown state from indexing out of range.
func StateIndex(s cluster.PodState) int {
	if s < 0 || int(s) >= len(PodGlyphs) {
		return int(cluster.PodPending)
	}
	return int(s)
}
