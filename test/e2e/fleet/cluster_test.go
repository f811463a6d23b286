package fleet

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait on the cluster or the screen. It only bounds a
// failing test; nothing here asserts how fast anything is.
const patience = 2 * time.Minute

const hollowNodes = 3

// The hollow kubelets' images: ready about a second after binding; an image
// tagged *-missing never pulls (ErrImagePull, then ImagePullBackOff), one
// tagged *-crash exits a second after every start (CrashLoopBackOff).
var images = []kubelet.ImageRule{
	{Match: "*-missing", PullError: true, Pull: 200 * time.Millisecond},
	{Match: "*-crash", CrashLoop: true, Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond},
	{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 500 * time.Millisecond, Stop: 300 * time.Millisecond},
}

// setup is the fleet's cluster: the StatefulSet and DaemonSet controllers
// too, and hollow nodes whose failed syncs are retried with back-off, which
// is not the tests' business.
var setup = e2etest.Setup{
	Patience:    patience,
	Rollscope:   true,
	Controllers: []string{"statefulset-controller", "daemonset-controller"},
	Nodes: live.Nodes{
		Groups:  []nodegroup.Group{e2etest.HollowGroup(hollowNodes, 500*time.Millisecond, e2etest.Capacity("110", "8", "16Gi"))},
		Images:  images,
		OnError: e2etest.IgnoreErrors,
	},
}

// testbed is the control plane, its hollow nodes and the fleet on it, shared
// by every test of the package.
type testbed struct {
	cp    *controlplane.ControlPlane
	admin kubernetes.Interface
	bin   string
}

// shared is started once, by the first test that asks for it (fleetCluster),
// and stopped by TestMain (stopShared): starting a control plane and
// building the fleet take most of the package's time, and no test changes
// what another reads without putting it back.
var shared struct {
	once sync.Once
	c    *testbed
	err  error
	tb   *e2etest.PackageTB
}

// fleetCluster returns the shared cluster with the fleet built and settled,
// starting it on the first call; the test is skipped under -short.
func fleetCluster(t *testing.T) *testbed {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real control plane")
	}
	shared.once.Do(func() {
		// Until the fleet is built: a failed start fails the first test
		// itself (t.Fatal), and the others must not run on half a fleet.
		shared.err = fmt.Errorf("it failed in the first test that started it; see there")
		shared.tb = e2etest.ForPackage(t)
		ec := e2etest.Start(shared.tb, setup)
		c := &testbed{cp: ec.CP, admin: ec.Admin, bin: ec.Bin}
		building := time.Now()
		buildFleet(t, c)
		t.Logf("the fleet built and in its states in %s", time.Since(building).Round(100*time.Millisecond))
		shared.c, shared.err = c, nil
	})
	if shared.err != nil {
		t.Fatalf("the shared fleet cluster did not start: %v", shared.err)
	}
	return shared.c
}

// stopShared ends the hollow nodes and the control plane, keeping the
// control plane's directory and printing its logs when a test failed.
func stopShared(failed bool) {
	if shared.tb != nil {
		shared.tb.Stop(failed)
	}
}
