package multicluster

import (
	"os"
	"testing"

	"rollscope/test/e2e/rollscopebin"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rollscopebin.Cleanup()
	os.Exit(code)
}
