package argo

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait on the cluster. It only bounds a failing test;
// nothing here asserts how fast anything is.
const patience = 2 * time.Minute

// setup is the package's cluster: three hollow nodes whose pods are ready
// about a second after binding, and Argo Rollouts' controller.
var setup = e2etest.Setup{
	Patience: patience,
	Argo:     true,
	Nodes: live.Nodes{
		Groups: []nodegroup.Group{e2etest.HollowGroup(3, 500*time.Millisecond, e2etest.Capacity("110", "8", "16Gi"))},
		Images: []kubelet.ImageRule{
			{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 500 * time.Millisecond, Stop: 300 * time.Millisecond},
		},
		OnError: e2etest.IgnoreErrors,
	},
}

// shared is started by the first test that asks for it (cluster) and
// stopped by TestMain: every test works in its own namespace.
var shared struct {
	once sync.Once
	c    *e2etest.Cluster
	err  error
	tb   *e2etest.PackageTB
}

// cluster returns the package's cluster, starting it on the first call; the
// test is skipped under -short.
func cluster(t *testing.T) *e2etest.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real control plane and Argo Rollouts' controller")
	}
	shared.once.Do(func() {
		shared.err = fmt.Errorf("it failed in the first test that started it; see there")
		shared.tb = e2etest.ForPackage(t)
		shared.c = e2etest.Start(shared.tb, setup)
		shared.err = nil
	})
	if shared.err != nil {
		t.Fatalf("the shared cluster did not start: %v", shared.err)
	}
	return shared.c
}

// TestMain runs the tests, then stops the controller, the hollow nodes and
// the control plane (keeping its directory and printing the logs when a
// test failed).
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.tb != nil {
		shared.tb.Stop(code != 0)
	}
	os.Exit(code)
}
