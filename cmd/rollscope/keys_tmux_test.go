package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// useKeyConfig makes body the config file of every rollscope the test
// starts.
func useKeyConfig(t *testing.T, body string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "rollscope"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rollscope", "config.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", dir)
}

// A key the terminal never sends is refused before the console starts, in
// one line naming the file, the line and the key, with exit status 2: a
// console bound to it could not be quit.
func TestConsoleRefusesAnUnknownKeyName(t *testing.T) {
	useKeyConfig(t, "keys:\n  quit: [\"notakey+++\"]\n")
	// Wide enough for the temporary directory's path on one line.
	c := startConsole(t, 250, 10, "--scenario", "frontend")
	s := c.waitFor("rollscope exited 2")
	want := `config.yaml:2: quit: "notakey+++" is not a key: "notakey" is not a modifier`
	if !strings.Contains(s, want) || strings.Contains(s, "deploy frontend") {
		t.Errorf("screen does not show the one-line refusal %q:\n%s", want, s)
	}
	lines := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines++
		}
	}
	if lines != 2 {
		t.Errorf("want the refusal and the exit status alone, got %d lines:\n%s", lines, s)
	}
}

// ctrl+c quits the console whatever the config file binds quit to; the
// footer shows the file's key.
func TestConsoleCtrlCQuitsWithQuitRebound(t *testing.T) {
	useKeyConfig(t, "keys:\n  quit: [Q]\n")
	c := startConsole(t, 120, 30, "--scenario", "frontend")
	s := c.waitFor("deploy frontend")
	if !strings.Contains(s, "Q quit") {
		t.Errorf("footer does not show the rebound quit key:\n%s", s)
	}
	// q no longer quits: the console still answers the next key.
	c.keys("q", "?")
	c.waitFor("esc or ? to close")
	c.keys("C-c")
	c.waitFor("rollscope exited 0")
}
