package main

import (
	"strings"
	"testing"

	"rollscope/model"
)

// --plain says on stderr when the API server stops answering and when it
// answers again, once each, and nothing while the state holds.
func TestPlainWatchLine(t *testing.T) {
	live := model.WatchStatus{Synced: true, Connected: true}
	frozen := model.WatchStatus{Synced: true, Unanswered: true, Problem: "no answer within 2s"}
	lost := model.WatchStatus{Synced: true, Problem: "connection refused"}
	for _, tc := range []struct {
		name     string
		was, now model.WatchStatus
		want     string
	}{
		{"frozen", live, frozen, "the API server is not answering (no answer within 2s)"},
		{"still frozen", frozen, frozen, ""},
		{"answers again", frozen, live, "the API server answers again"},
		{"watch lost", live, lost, "watch lost (connection refused)"},
		{"first batch", model.WatchStatus{}, live, ""},
		{"steady", live, live, ""},
	} {
		got := plainWatchLine(tc.was, tc.now)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
