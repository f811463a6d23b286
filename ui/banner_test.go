package ui

import (
	"strings"
	"testing"
	"time"

	"rollscope/model/cluster"
)

func TestWatchBanner(t *testing.T) {
	tests := []struct {
		name string
		ws   cluster.WatchStatus
		want string
	}{
		{"before the first batch", cluster.WatchStatus{}, "connecting"},
		{"listing", cluster.WatchStatus{Connected: true}, "incomplete until every watch has synced"},
		{"listing pods", cluster.WatchStatus{Connected: true, Listing: "Pod", ListedSoFar: 12000}, "listing pods… 12,000 so far — the picture is incomplete"},
		{"lost with a reason", cluster.WatchStatus{Synced: true, Problem: "Unauthorized", Since: t0.Add(-90 * time.Second)},
			"watch lost 90s ago: Unauthorized"},
		{"lost", cluster.WatchStatus{Synced: true}, "not connected"},
		{"healthy", cluster.WatchStatus{Synced: true, Connected: true}, ""},
		{"API server frozen, watches none the wiser", cluster.WatchStatus{Synced: true, Unanswered: true, Problem: "no answer within 2s", Since: t0.Add(-4 * time.Second)},
			"API server not answering for 4s: no answer within 2s — showing the last known state"},
		// The Nodes pane says it; a banner would call a live picture stale.
		{"nodes forbidden", cluster.WatchStatus{Synced: true, Connected: true, Forbidden: "Namespace, Node"}, ""},
		{"events forbidden", cluster.WatchStatus{Synced: true, Connected: true, Forbidden: "Node, Event, PodDisruptionBudget"}, "you may not list events, poddisruptionbudgets here"},
	}
	for _, tc := range tests {
		got := watchBanner(tc.ws, t0)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: banner = %q, want it to contain %q", tc.name, got, tc.want)
		}
	}
}
