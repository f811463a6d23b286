package controlplane

import (
	"testing"

	"rollscope/test/e2e/cpbuild"
)

// StartForTest builds (or finds cached) binaries, starts a control plane and
// registers its teardown with t.Cleanup. When the test fails, the cleanup
// prints the components' logs and keeps the directory holding them.
func StartForTest(t testing.TB) *ControlPlane {
	t.Helper()
	ctx := t.Context()
	bins, err := cpbuild.Ensure(ctx, func(line string) { t.Log(line) })
	if err != nil {
		t.Fatalf("building the control plane: %v", err)
	}
	cp, err := Start(ctx, Config{Binaries: bins})
	if err != nil {
		t.Fatalf("starting the control plane: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			cp.KeepDir()
			t.Log(cp.Logs(80))
		}
		cp.Stop()
	})
	return cp
}
