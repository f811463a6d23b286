package fleet

import (
	"os"
	"testing"

	"rollscope/test/e2e/rollscopebin"
)

// TestMain runs the tests, then stops the shared control plane (keeping its
// directory and printing its logs when a test failed) and removes the
// rollscope binary.
func TestMain(m *testing.M) {
	code := m.Run()
	stopShared(code != 0)
	rollscopebin.Cleanup()
	os.Exit(code)
}
