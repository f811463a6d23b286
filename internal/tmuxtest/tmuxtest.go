// Package tmuxtest drives a real program in a detached tmux session, the way
// an operator sees it: the tests type keys and read the screen. Each session
// runs on a tmux server of its own, so tests never touch the user's sessions
// nor each other's.
package tmuxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// DefaultTimeout bounds how long Wait* polls the screen before failing the
// test. It only bounds a failing test; it asserts nothing about speed, so it
// is generous for a loaded 2-core machine.
const DefaultTimeout = 30 * time.Second

// pollEvery is how often Wait* captures the screen.
const pollEvery = 100 * time.Millisecond

// settle is how long a screen Wait* accepted must still hold: far longer
// than drawing a frame takes, far shorter than anything the console shows.
const settle = 50 * time.Millisecond

// target is the one session (and window) each tmux server holds.
const target = "console"

var sessions atomic.Int64

// Session is one program running in its own tmux server.
type Session struct {
	t      testing.TB
	socket string
	// Timeout bounds each Wait*; DefaultTimeout unless changed.
	Timeout time.Duration
}

// Start runs argv in a new detached session of width×height cells and kills
// the session's server when the test ends. When the program exits, the
// shell prints "NAME exited CODE" (NAME the program's base name) after the
// program has left the alternate screen — what a user sees — and keeps the
// pane open for a minute so the tests can read it.
//
// Without tmux the test is skipped, or fails when CI is set (CI must run
// these tests).
func Start(t testing.TB, width, height int, argv ...string) *Session {
	t.Helper()
	if len(argv) == 0 {
		t.Fatal("tmuxtest.Start: no command to run")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux is not installed")
	}
	s := &Session{
		t:       t,
		socket:  fmt.Sprintf("rollscope-test-%d-%d", os.Getpid(), sessions.Add(1)),
		Timeout: DefaultTimeout,
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = Quote(a)
	}
	line := fmt.Sprintf("%s; echo \"%s exited $?\"; sleep 60", strings.Join(quoted, " "), filepath.Base(argv[0]))
	s.Tmux("new-session", "-d", "-s", target, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), line)
	t.Cleanup(s.Kill)
	return s
}

// Quote makes s one word for the shell tmux runs the command with.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Tmux runs a tmux command against this session's server and fails the test
// when it fails.
func (s *Session) Tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// Kill ends the session's tmux server and the program with it; the test's
// cleanup does it anyway.
func (s *Session) Kill() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() }

// Screen is what the pane shows now, as plain text.
func (s *Session) Screen() string { return s.Tmux("capture-pane", "-p", "-t", target) }

// Keys types keys as tmux send-keys names them ("q", "Enter", "C-u"; "-l"
// first to send the rest literally). After "Escape", wait for the screen to
// show its effect before the next key: a terminal program reads an ESC
// followed at once by a key as alt+key.
func (s *Session) Keys(keys ...string) {
	s.t.Helper()
	s.Tmux(append([]string{"send-keys", "-t", target}, keys...)...)
}

// WaitFor polls the screen until it contains want and returns that screen.
func (s *Session) WaitFor(want string) string {
	s.t.Helper()
	return s.WaitUntil(fmt.Sprintf("%q", want), func(screen string) bool { return strings.Contains(screen, want) })
}

// WaitMatch polls the screen until re matches it and returns that screen.
func (s *Session) WaitMatch(re *regexp.Regexp) string {
	s.t.Helper()
	return s.WaitUntil("a match for /"+re.String()+"/", re.MatchString)
}

// WaitUntil polls the screen until ok accepts it and returns that screen.
// On timeout it fails the test naming what, and showing the last screen.
func (s *Session) WaitUntil(what string, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(s.Timeout)
	for {
		screen := s.Screen()
		if ok(screen) {
			// A frame reaches the terminal in pieces, which a terminal
			// without synchronized output (tmux 3.3) shows half drawn: a
			// screen counts once it still holds a moment later, and that
			// later, whole one is what the test reads.
			time.Sleep(settle)
			if again := s.Screen(); ok(again) {
				return again
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %s within %s; it shows:\n%s", what, s.Timeout, screen)
		}
		time.Sleep(pollEvery)
	}
}
