package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"rollscope/kube/recording"
)

// withoutClock is a screen with the header's clock (live) or replay badge
// left off its first line: what else it shows must be the same.
func withoutClock(screen string) string {
	lines := strings.Split(screen, "\n")
	for _, mark := range []string{"clock ", "REPLAY "} {
		if i := strings.Index(lines[0], mark); i >= 0 {
			lines[0] = lines[0][:i]
		}
	}
	// What is left of the header gives up its images' prefixes to the
	// clock's width: its words up to the revision are compared.
	if i := strings.Index(lines[0], "  …"); i >= 0 {
		lines[0] = lines[0][:i]
	}
	lines[0] = strings.TrimRight(lines[0], " ")
	return strings.Join(lines, "\n")
}

// pausedScreen pauses the console's clock once it shows the set image's
// rollout (rev 2) and want, and returns the screen once nothing more
// arrives.
func pausedScreen(c *tmuxConsole, want string) string {
	rollingOut(c, want)
	c.keys("Space")
	c.waitFor("CLOCK PAUSED")
	// The watch's last batch and its redraw may come after the badge: the
	// screen counts once it has stood still for a second.
	last := c.Screen()
	for range 30 {
		time.Sleep(time.Second)
		now := c.Screen()
		if now == last {
			break
		}
		last = now
	}
	return last
}

// rollingOut waits for the set image's rollout (rev 2) to show want.
func rollingOut(c *tmuxConsole, want string) {
	c.WaitUntil("rev 2 and "+want, func(s string) bool { return strings.Contains(s, "rev 2") && strings.Contains(s, want) })
}

// TestReplayShowsWhatTheLiveConsoleShowed records the embedded frontend
// rollout from the console, paused at two moments (mid-rollout, and
// finished), and replays the recording at each moment's clock: the screen
// is the live one but for the header's clock and the replay badge.
func TestReplayShowsWhatTheLiveConsoleShowed(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	file := filepath.Join(t.TempDir(), "frontend.rec")
	live := startConsole(t, 120, 36, "--speed", "10", "--record-to", file)
	mid := pausedScreen(live, "new replicas have been updated")
	live.keys("Space")
	done := pausedScreen(live, "successfully rolled out")
	live.keys("q")
	live.waitFor("rollscope exited 0")
	for name, was := range map[string]string{"mid-rollout": mid, "finished": done} {
		at := clockOf(t, was)
		replay := startConsole(t, 120, 36, "replay", file, "--at", at)
		// The replay seeks, then draws: on a busy machine that can take a
		// while, so the screen is polled until it is the live one (or the
		// wait ends, showing both).
		replay.WaitUntil(fmt.Sprintf("%s, at %s, as the live console showed it:\n%s\n", name, at, was), func(got string) bool {
			return strings.Contains(got, "REPLAY") && strings.Contains(got, at) && withoutClock(got) == withoutClock(was)
		})
		replay.keys("u")
		replay.waitFor("replay: this is a recording, not a cluster")
	}
}

// TestReplayOfAKilledRecorderReachesItsLastSecond kills the recording
// console with SIGKILL mid-rollout: the file replays up to its last whole
// second.
func TestReplayOfAKilledRecorderReachesItsLastSecond(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	file := filepath.Join(t.TempDir(), "killed.rec")
	live := startConsole(t, 120, 36, "--speed", "10", "--record-to", file)
	rollingOut(live, "new replicas have been updated")
	time.Sleep(1500 * time.Millisecond) // a member closed mid-rollout
	shell, err := strconv.Atoi(strings.TrimSpace(live.Tmux("display-message", "-p", "-t", "console", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	children, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(shell), "task", strconv.Itoa(shell), "children"))
	pid, perr := strconv.Atoi(strings.TrimSpace(string(children)))
	if err != nil || perr != nil {
		t.Skipf("cannot find the console's process under the shell %d: %v %v", shell, err, perr)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	live.waitFor("rollscope exited 137")
	tape, err := recording.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	last := tape.End().Format(time.TimeOnly)
	replay := startConsole(t, 120, 36, "replay", file, "--at", last)
	s := replay.waitFor("REPLAY")
	wantAll(t, s, "replay at the killed recording's last second", last, "deploy frontend", "rev 2")
}

// A recording of namespace shop stops where the console leaves it (:ns
// billing) and the console says so: recording on would have written
// billing's objects into it and left shop's standing still.
func TestRecordingStopsWhenTheConsoleLeavesItsNamespace(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	file := filepath.Join(t.TempDir(), "shop.rec")
	c := startConsole(t, 160, 40, "--scenario", "fleet", "-n", "shop", "--speed", "10", "--record-to", file)
	c.waitFor("ns shop")
	c.keys(":ns billing", "Enter")
	c.waitFor("--record-to shop.rec stopped at ")
	wantAll(t, c.Screen(), "the billing fleet", "ns billing", "it records namespace shop of embedded, which this console does not show")
	c.keys("q")
	c.waitFor("rollscope exited 0")
	tape, err := recording.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tape.Frames {
		for _, obj := range f.Batch.Objects {
			if m, ok := obj.(interface{ GetNamespace() string }); ok && m.GetNamespace() == "billing" {
				t.Fatalf("the recording of shop holds billing's %T", obj)
			}
		}
	}
}
