package controlplane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rollscope/test/e2e/cpbuild"
)

// fakeBinaries writes shell scripts in place of the four components; each
// appends a line to starts and then fails with message on stderr.
func fakeBinaries(t *testing.T, starts, message string) cpbuild.Binaries {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{cpbuild.Etcd, cpbuild.KubeAPIServer, cpbuild.KubeControllerMgr, cpbuild.KubeScheduler} {
		script := "#!/bin/sh\necho " + name + " >> '" + starts + "'\necho \"" + name + ": " + message + "\" >&2\nexit 3\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return cpbuild.Binaries{Dir: dir}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return strings.Count(string(data), "\n")
}

// TestStartReportsAComponentThatDies: when a component exits during start,
// Start says which one and shows its log, stops the rest, keeps the
// directory the error points to, and does not retry what a retry cannot fix.
func TestStartReportsAComponentThatDies(t *testing.T) {
	starts := filepath.Join(t.TempDir(), "starts")
	dir := filepath.Join(t.TempDir(), "cp")
	cp, err := Start(t.Context(), Config{Binaries: fakeBinaries(t, starts, "cannot open the data directory"), Dir: dir})
	if err == nil {
		cp.Stop()
		t.Fatal("Start succeeded with an etcd that exits at once")
	}
	msg := err.Error()
	for _, want := range []string{"etcd exited", "exit status 3", "etcd: cannot open the data directory", filepath.Join(dir, "logs")} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not mention %q:\n%s", want, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "logs", "etcd.log")); err != nil {
		t.Errorf("the etcd log is gone after a failed start: %v", err)
	}
	if n := countLines(t, starts); n != 1 {
		t.Errorf("etcd was started %d times, want once: the failure is not a port clash", n)
	}
}

// TestStartRetriesALostPortRace: a component that finds its port taken makes
// Start try again on fresh ports, a bounded number of times.
func TestStartRetriesALostPortRace(t *testing.T) {
	starts := filepath.Join(t.TempDir(), "starts")
	cfg := Config{
		Binaries: fakeBinaries(t, starts, "listen tcp 127.0.0.1:2379: bind: address already in use"),
		Dir:      filepath.Join(t.TempDir(), "cp"),
	}
	_, err := Start(t.Context(), cfg)
	if err == nil {
		t.Fatal("Start succeeded with an etcd that never gets its port")
	}
	if n := countLines(t, starts); n != 3 {
		t.Errorf("etcd was started %d times, want 3 attempts", n)
	}
}
