package argobuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cache entry that holds the controller, the plugin and every CRD is used
// as it is: nothing is built.
func TestEnsureFindsACachedBuild(t *testing.T) {
	root := t.TempDir()
	t.Setenv(CacheEnv, root)
	src, err := ModuleDir()
	if err != nil {
		t.Fatal(err)
	}
	key, err := Digest(src)
	if err != nil {
		t.Fatal(err)
	}
	want := Build{Dir: filepath.Join(root, key)}
	for _, p := range append([]string{want.Controller(), want.Plugin()}, want.CRDPaths()...) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("cached\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Ensure(t.Context(), func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	if got.Built || got.Dir != want.Dir {
		t.Fatalf("Ensure = %+v, want the cached entry %s, not built", got, want.Dir)
	}
}

// The cache is named after Version: a go.mod requiring another Argo
// Rollouts is refused, and any change to the module's files moves the key.
func TestDigestFollowsTheModule(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module x\n\nrequire "+Module+" v1.9.0\n")
	if _, err := Digest(dir); err == nil || !strings.Contains(err.Error(), Version) {
		t.Fatalf("Digest of a go.mod requiring v1.9.0: %v, want a refusal naming %s", err, Version)
	}
	write("go.mod", "module x\n\nrequire "+Module+" "+Version+"\n")
	write("go.sum", "a\n")
	first, err := Digest(dir)
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", "b\n")
	second, err := Digest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if first == second {
		t.Fatalf("a changed go.sum kept the key %s", first)
	}
}
