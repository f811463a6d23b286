package main

import (
	"strings"
	"testing"

	"rollscope/internal/tmuxtest"
)

// tmuxConsole runs the real binary in a detached tmux session of its own
// tmux server (internal/tmuxtest), so the tests never touch the user's
// sessions. The methods keep the names the console tests use.
type tmuxConsole struct {
	t *testing.T
	*tmuxtest.Session
}

func startConsole(t *testing.T, width, height int, args ...string) *tmuxConsole {
	t.Helper()
	return &tmuxConsole{t: t, Session: tmuxtest.Start(t, width, height, append([]string{binary}, args...)...)}
}

func (c *tmuxConsole) keys(keys ...string) { c.t.Helper(); c.Keys(keys...) }

// waitFor polls the screen until it shows want. The limit only bounds a
// failing test; it asserts nothing about speed.
func (c *tmuxConsole) waitFor(want string) string { c.t.Helper(); return c.WaitFor(want) }

// wantAll fails the test for each of wants that text lacks; what names the
// text (a screen, an output) in the message.
func wantAll(t testing.TB, text, what string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

func TestConsoleShowsTheFrontendRolloutLive(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 100, 30, "--speed", "40")
	s := c.waitFor("deploy frontend")
	wantAll(t, s, "first screen", "ctx embedded", "RollingUpdate", "maxSurge 3", "ReplicaSets", "surge")
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
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
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
