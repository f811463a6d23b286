package controlplane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rollscope/test/e2e/cpbuild"
)

// TestStartReportsAComponentThatDies: when a component exits during start,
// Start says which one and shows its log, stops the rest, and keeps the
// directory the error points to.
func TestStartReportsAComponentThatDies(t *testing.T) {
	bins := t.TempDir()
	for _, name := range []string{cpbuild.Etcd, cpbuild.KubeAPIServer, cpbuild.KubeControllerMgr, cpbuild.KubeScheduler} {
		script := "#!/bin/sh\necho \"" + name + ": cannot open the data directory\" >&2\nexit 3\n"
		if err := os.WriteFile(filepath.Join(bins, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "cp")
	cp, err := Start(t.Context(), Config{Binaries: cpbuild.Binaries{Dir: bins}, Dir: dir})
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
}
