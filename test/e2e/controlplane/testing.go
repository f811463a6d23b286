package controlplane

import (
	"os"
	"testing"
	"time"

	"rollscope/test/e2e/cpbuild"
)

// KeepEnv, when set, makes StartForTest keep the control plane's directory
// (certificates, kubeconfigs, logs) even when the test passes.
const KeepEnv = "ROLLSCOPE_E2E_KEEP"

// StartForTest builds (or finds cached) binaries, starts a control plane and
// registers its teardown with t.Cleanup. When the test fails, the cleanup
// prints the components' logs and keeps the directory holding them.
func StartForTest(t testing.TB) *ControlPlane {
	t.Helper()
	return StartForTestWith(t, Config{})
}

// StartForTestWith is StartForTest with cfg (its Binaries are filled in):
// the StatefulSet and DaemonSet fidelity tests start the controller
// manager with those two controllers too.
func StartForTestWith(t testing.TB, cfg Config) *ControlPlane {
	t.Helper()
	ctx := t.Context()
	bins, err := cpbuild.Ensure(ctx, func(line string) { t.Log(line) })
	if err != nil {
		t.Fatalf("building the control plane: %v", err)
	}
	started := time.Now()
	cfg.Binaries = bins
	cp, err := Start(ctx, cfg)
	if err != nil {
		t.Fatalf("starting the control plane: %v", err)
	}
	t.Logf("control plane ready at %s in %s (binaries: %s)", cp.URL, time.Since(started).Round(time.Millisecond), bins.Dir)
	t.Cleanup(func() {
		if os.Getenv(KeepEnv) != "" {
			cp.KeepDir()
			t.Logf("%s is set: keeping %s", KeepEnv, cp.Dir)
		}
		if t.Failed() {
			cp.KeepDir()
			t.Log(cp.Logs(80))
		}
		stopping := time.Now()
		cp.Stop()
		t.Logf("control plane stopped in %s", time.Since(stopping).Round(time.Millisecond))
	})
	return cp
}
