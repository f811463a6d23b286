package ui

import (
	"strings"
	"time"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// watchBanner says why the picture on screen cannot be fully trusted, ""
// when it can.
func watchBanner(ws cluster.WatchStatus, now time.Time) string {
	switch {
	case !ws.Connected && ws.Unanswered:
		return "API server not answering for " + draw.Age(now, ws.Since) + ": " + ws.Problem + " — showing the last known state, asking again every second"
	case !ws.Connected && ws.Problem != "":
		return "watch lost " + draw.Age(now, ws.Since) + " ago: " + ws.Problem + " — showing the last known state, reconnecting"
	case !ws.Connected && !ws.Synced:
		return "connecting to the cluster and listing what it runs…"
	case !ws.Connected:
		return "not connected to the cluster — showing the last known state, reconnecting"
	case !ws.Synced && ws.Listing != "":
		return "listing " + draw.Listing(ws, ws.Listing) + " — the picture is incomplete until every watch has synced"
	case !ws.Synced:
		return "listing the cluster… the picture is incomplete until every watch has synced"
	case unexplained(ws.Forbidden) != "":
		return "you may not list " + unexplained(ws.Forbidden) + " here: what they would show is missing, the rest is live"
	}
	return ""
}

// unexplained names, as kubectl's resources, the forbidden kinds nothing
// else on screen accounts for: nodes are the Nodes pane's to explain, and
// namespaces only serve to say that one does not exist.
func unexplained(kinds string) string {
	var out []string
	for k := range strings.SplitSeq(kinds, ", ") {
		if k != "" && k != "Node" && k != "Namespace" {
			out = append(out, strings.ToLower(k)+"s")
		}
	}
	return strings.Join(out, ", ")
}
