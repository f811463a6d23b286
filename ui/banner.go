package ui

import (
	"strings"
	"time"

	"rollscope/model"
	"rollscope/ui/draw"
)

// watchBanner says why the picture on screen cannot be fully trusted, ""
// when it can.
func watchBanner(ws model.WatchStatus, now time.Time) string {
	switch {
	case !ws.Connected && ws.Unanswered:
		return "API server not answering for " + draw.Age(now, ws.Since) + ": " + ws.Problem + " — showing the last known state, asking again every second"
	case !ws.Connected && ws.Problem != "":
		return "watch lost " + draw.Age(now, ws.Since) + " ago: " + ws.Problem + " — showing the last known state, reconnecting"
	case !ws.Connected && !ws.Synced:
		return "connecting to the cluster and listing what it runs…"
	case !ws.Connected:
		return "not connected to the cluster — showing the last known state, reconnecting"
	case !ws.Synced:
		return "listing the cluster… the picture is incomplete until every watch has synced"
	case ws.Forbidden != "" && ws.Forbidden != "Node":
		// Nodes are the Nodes pane's to explain; other kinds have no pane
		// of their own to say so.
		return "you may not list " + resources(ws.Forbidden) + " here: what they would show is missing, the rest is live"
	}
	return ""
}

// resources names kinds as kubectl's resources: "Event, PodDisruptionBudget"
// is "events, poddisruptionbudgets".
func resources(kinds string) string {
	var out []string
	for k := range strings.SplitSeq(kinds, ", ") {
		out = append(out, strings.ToLower(k)+"s")
	}
	return strings.Join(out, ", ")
}
