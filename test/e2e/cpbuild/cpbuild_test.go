package cpbuild

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const fakeDigest = "0123abcd"

// writeFakes puts a file for every binary into dir with the given mode, and
// the stamp of a build from the module set fakeDigest.
func writeFakes(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	writeFakesStamped(t, dir, mode, fakeDigest)
}

func writeFakesStamped(t *testing.T, dir string, mode os.FileMode, digest string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range packages {
		if err := os.WriteFile(filepath.Join(dir, p.name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, stampFile), []byte(digest+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEnsureFindsCachedBinariesWithoutBuilding(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	root := t.TempDir()
	t.Setenv(CacheEnv, root)
	moduleDir, err := ModuleDir()
	if err != nil {
		t.Fatal(err)
	}
	versions, err := PinnedVersions(t.Context(), moduleDir)
	if err != nil {
		t.Fatal(err)
	}
	if versions.Kubernetes != "v1.36.3" {
		t.Errorf("go.mod pins kubernetes %s, want v1.36.3", versions.Kubernetes)
	}
	set, err := moduleSet(t.Context(), moduleDir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(set, "k8s.io/kubernetes@v1.36.3") || !slices.Contains(set, "k8s.io/client-go@v0.36.3=>k8s.io/client-go@v0.36.3") {
		t.Errorf("the module set lacks kubernetes or the pinned client-go: %v", set)
	}
	want := filepath.Join(root, versions.Key())
	writeFakesStamped(t, want, 0o755, set.digest())

	bins, err := Ensure(t.Context(), func(line string) { t.Errorf("Ensure logged %q; want a silent cache hit", line) })
	if err != nil {
		t.Fatal(err)
	}
	if bins.Built || bins.Dir != want {
		t.Errorf("Ensure = dir %s built %v, want the cached %s without building", bins.Dir, bins.Built, want)
	}
	if got := bins.Path(KubeAPIServer); got != filepath.Join(want, "kube-apiserver") {
		t.Errorf("Path(KubeAPIServer) = %s", got)
	}
}

func TestCompleteNeedsEveryBinaryExecutable(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  bool
	}{
		{"all four executable", func(t *testing.T, dir string) { writeFakes(t, dir, 0o755) }, true},
		{"empty directory", func(t *testing.T, dir string) {}, false},
		{"built from other modules", func(t *testing.T, dir string) { writeFakesStamped(t, dir, 0o755, "ffff") }, false},
		{"no stamp (an older or interrupted build)", func(t *testing.T, dir string) {
			writeFakes(t, dir, 0o755)
			if err := os.Remove(filepath.Join(dir, stampFile)); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"not executable", func(t *testing.T, dir string) { writeFakes(t, dir, 0o644) }, false},
		{"one missing", func(t *testing.T, dir string) {
			writeFakes(t, dir, 0o755)
			if err := os.Remove(filepath.Join(dir, KubeScheduler)); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a directory in place of a binary", func(t *testing.T, dir string) {
			writeFakes(t, dir, 0o755)
			if err := os.Remove(filepath.Join(dir, Etcd)); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, Etcd), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			if got := complete(Binaries{Dir: dir, Modules: fakeDigest}); got != tc.want {
				t.Errorf("complete = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBuildLockWaitsForTheHolder(t *testing.T) {
	root := t.TempDir()
	unlock, err := Lock(t.Context(), root, "k", "the control plane", func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		second, err := Lock(t.Context(), root, "k", "the control plane", func(line string) {
			select {
			case got <- line:
			default:
			}
		})
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		second()
		got <- "locked"
	}()
	if line := <-got; !strings.Contains(line, "waiting") {
		t.Fatalf("second locker said %q first, want that it waits", line)
	}
	unlock()
	if line := <-got; line != "locked" {
		t.Fatalf("second locker: %q after the first unlocked, want locked", line)
	}
}
