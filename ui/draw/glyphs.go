package draw

import (
	"strings"

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

// Listing says how far the first list of kind ("Pod") has come while the
// picture is not synced: "pods… 12,000 so far", or "pods…" before any has
// come or while another kind's list is the one counted.
func Listing(ws cluster.WatchStatus, kind string) string {
	what := strings.ToLower(kind) + "s…"
	if ws.Listing == kind && ws.ListedSoFar > 0 {
		what += " " + Thousands(ws.ListedSoFar) + " so far"
	}
	return what
}
