package ui

import (
	"time"

	"rollscope/model"
	"rollscope/ui/draw"
)

// watchBanner says why the picture on screen cannot be fully trusted, ""
// when it can.
func watchBanner(ws model.WatchStatus, now time.Time) string {
	switch {
	case !ws.Connected && ws.Problem != "":
		return "watch lost " + draw.Age(now, ws.Since) + " ago: " + ws.Problem + " — showing the last known state, reconnecting"
	case !ws.Connected && !ws.Synced:
		return "connecting to the cluster and listing what it runs…"
	case !ws.Connected:
		return "not connected to the cluster — showing the last known state, reconnecting"
	case !ws.Synced:
		return "listing the cluster… the picture is incomplete until every watch has synced"
	}
	return ""
}
