package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRehearseFromHereForksTheReplay records the embedded frontend
// rollout, replays it at a mid-rollout moment and presses F5: the console
// carries on as an embedded rehearsal forked at that moment (no REPLAY
// badge), where undo works and shows its forecast.
func TestRehearseFromHereForksTheReplay(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	file := filepath.Join(t.TempDir(), "frontend.rec")
	live := startConsole(t, 120, 36, "--speed", "10", "--record-to", file)
	mid := pausedScreen(live, "new replicas have been updated")
	live.keys("q")
	live.waitFor("rollscope exited 0")
	at := clockOf(t, mid)
	replay := startConsole(t, 120, 36, "replay", file, "--at", at)
	replay.waitFor("REPLAY")
	replay.keys("F5")
	s := replay.waitFor("REHEARSAL forked at " + at)
	if strings.Contains(s, "REPLAY") {
		t.Errorf("the rehearsal still says REPLAY:\n%s", s)
	}
	wantAll(t, s, "the forked rehearsal", "deploy frontend", "rev 2")
	replay.keys("u")
	replay.waitFor("undo to which revision?")
	replay.keys("Enter")
	replay.waitFor("forecast:")
	s = replay.WaitUntil("the forecast's last words", func(s string) bool { return strings.Contains(s, "about ") || strings.Contains(s, "stops after") })
	if strings.Contains(s, "replay: this is a recording") {
		t.Errorf("the rehearsal refuses undo as a replay:\n%s", s)
	}
}
