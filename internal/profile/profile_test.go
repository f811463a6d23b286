package profile

import (
	"os"
	"path/filepath"
	"testing"
)

// A profile goes where it is asked; a path that cannot be created is told
// apart from the profiler's own failure, so that the caller can name its flag.
func TestProfilesAreWrittenWhereAsked(t *testing.T) {
	dir := t.TempDir()
	stop, create, err := CPU(filepath.Join(dir, "cpu"))
	if create != nil || err != nil {
		t.Fatalf("CPU: %v, %v", create, err)
	}
	stop()
	if create, err := Heap(filepath.Join(dir, "heap")); create != nil || err != nil {
		t.Fatalf("Heap: %v, %v", create, err)
	}
	for _, name := range []string{"cpu", "heap"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s profile: %v", name, err)
		}
	}
	if _, create, _ := CPU(filepath.Join(dir, "no", "such", "dir")); create == nil {
		t.Error("CPU into a missing directory: no create error")
	}
	if create, _ := Heap(filepath.Join(dir, "no", "such", "dir")); create == nil {
		t.Error("Heap into a missing directory: no create error")
	}
	t.Setenv(ConsoleEnv, "")
	if stop, err := Console(); err != nil || stop == nil {
		t.Errorf("Console without %s: %v", ConsoleEnv, err)
	}
}
