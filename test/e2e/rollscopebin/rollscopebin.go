// Package rollscopebin builds the rollscope binary under test once per test
// binary, so that end-to-end tests run exactly what an operator runs.
package rollscopebin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	once  sync.Once
	path  string
	built error
)

// Path returns the path of a rollscope binary built from this checkout
// (`go build ./cmd/rollscope` in the product's module). The
// first call builds it into a directory removed when the test binary exits
// through TestMain's Cleanup; later calls return the same file.
func Path(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		dir, err := os.MkdirTemp("", "rollscope-bin-*")
		if err != nil {
			built = fmt.Errorf("making a directory for the rollscope binary: %w", err)
			return
		}
		path = filepath.Join(dir, "rollscope")
		// Build inside the product's own module (found through the replace
		// line), so its go.mod picks every dependency version, as it does
		// for a user's `go build` — not this module's larger build list.
		root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "rollscope").Output()
		if err != nil {
			built = fmt.Errorf("finding the rollscope module: %w", err)
			return
		}
		build := exec.Command("go", "build", "-o", path, "./cmd/rollscope")
		build.Dir = strings.TrimSpace(string(root))
		if out, err := build.CombinedOutput(); err != nil {
			built = fmt.Errorf("building rollscope in %s: %v\n%s", build.Dir, err, out)
		}
	})
	if built != nil {
		t.Fatal(built)
	}
	return path
}

// Main is a TestMain for packages that use Path: it runs the tests, then
// removes the binary.
func Main(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// Cleanup removes the built binary; Main calls it after the tests.
func Cleanup() {
	if path != "" {
		_ = os.RemoveAll(filepath.Dir(path))
	}
}
