package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// tmuxConsole runs the real binary in a detached tmux session of its own
// tmux server, so the tests never touch the user's sessions.
type tmuxConsole struct {
	t      *testing.T
	socket string
}

func startConsole(t *testing.T, width, height int, args ...string) *tmuxConsole {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux is not installed")
	}
	c := &tmuxConsole{t: t, socket: fmt.Sprintf("rollscope-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	// The shell line reports how the console ended, after it has left the
	// alternate screen: what a user sees when rollscope exits.
	cmd := fmt.Sprintf("%s %s; echo \"rollscope exited $?\"; sleep 60", binary, strings.Join(args, " "))
	c.tmux("new-session", "-d", "-s", "console", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", c.socket, "kill-server").Run() })
	return c
}

func (c *tmuxConsole) tmux(args ...string) string {
	c.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", c.socket}, args...)...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (c *tmuxConsole) screen() string { return c.tmux("capture-pane", "-p", "-t", "console") }

func (c *tmuxConsole) keys(keys ...string) {
	c.tmux(append([]string{"send-keys", "-t", "console"}, keys...)...)
}

// waitFor polls the screen until it shows want. The limit only bounds a
// failing test; it asserts nothing about speed.
func (c *tmuxConsole) waitFor(want string) string {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := c.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the screen never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestConsoleShowsTheFrontendRolloutLive(t *testing.T) {
	c := startConsole(t, 100, 30, "--speed", "40")
	s := c.waitFor("deploy frontend")
	for _, want := range []string{"ctx embedded", "RollingUpdate", "maxSurge 3", "ReplicaSets", "surge"} {
		if !strings.Contains(s, want) {
			t.Errorf("first screen lacks %q:\n%s", want, s)
		}
	}
	c.waitFor(`successfully rolled out`)
	// The scenario sets a new image at 60s of virtual time: the rollout
	// visibly moves on to revision 2 and finishes there.
	s = c.waitFor("rev 2")
	c.waitFor("gb-frontend:v3")
	if !strings.Contains(s, "new") && !strings.Contains(s, "stable") {
		t.Errorf("revision 2 is not marked new or stable:\n%s", s)
	}
}

func TestConsoleHelpPanesAndQuit(t *testing.T) {
	c := startConsole(t, 80, 24, "--speed", "10")
	c.waitFor("deploy frontend")

	c.keys("?")
	s := c.waitFor("esc or ? to close")
	if !strings.Contains(s, "quit") || !strings.Contains(s, "next pane") {
		t.Errorf("help overlay lacks the key map:\n%s", s)
	}
	c.keys("Escape")
	c.waitFor("ReplicaSets")

	c.keys("Tab")
	c.waitFor("Pods of")
	c.keys("Tab")
	c.waitFor("GROUP")

	c.keys("q")
	s = c.waitFor("rollscope exited 0")
	if strings.Contains(s, "deploy frontend") {
		t.Errorf("the console's screen is still there after q; the terminal was not restored:\n%s", s)
	}
}

func TestConsoleRejectsAnUnknownTheme(t *testing.T) {
	r := rollscope(t, "--theme", "neon")
	if r.code != 2 || !strings.Contains(r.stderr, "neon") {
		t.Fatalf("exit %d, stderr %q; want exit 2 naming the theme", r.code, r.stderr)
	}
}
