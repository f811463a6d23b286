package cpbuild

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Cached builds only an entry that is not complete, and a build that fails
// leaves no entry behind; a stale entry gives way to the new build whole.
func TestCachedBuildsOnlyWhatIsMissing(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "entry")
	bin := filepath.Join(dir, "bin")
	complete := func() bool { _, err := os.Stat(bin); return err == nil }
	builds := 0
	write := func(scratch string) error {
		builds++
		return os.WriteFile(filepath.Join(scratch, "bin"), []byte("built\n"), 0o755)
	}

	if built, err := Cached(t.Context(), root, "k", dir, "a test build", complete, func(string) error { return errors.New("no compiler") }, nil); err == nil || built {
		t.Fatalf("a failing build: built %v err %v, want an error", built, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("a failing build left %s behind (%v)", dir, err)
	}

	if err := os.MkdirAll(dir, 0o755); err != nil { // stale: no bin
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stale"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if built, err := Cached(t.Context(), root, "k", dir, "a test build", complete, write, nil); err != nil || !built || builds != 1 {
		t.Fatalf("a missing build: built %v err %v builds %d, want one build", built, err, builds)
	}
	if _, err := os.Stat(filepath.Join(dir, "stale")); !os.IsNotExist(err) {
		t.Errorf("the stale entry's file survived the new build (%v)", err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("the entry is %v (%v), want readable by all (0755)", info.Mode(), err)
	}

	if built, err := Cached(t.Context(), root, "k", dir, "a test build", complete, write, nil); err != nil || built || builds != 1 {
		t.Fatalf("a cached build: built %v err %v builds %d, want no build", built, err, builds)
	}
}
