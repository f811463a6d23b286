package fleet

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/cpbuild"
	"rollscope/test/e2e/e2etest"
	"rollscope/test/e2e/rollscopebin"
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

// cluster is the control plane, its hollow nodes and the fleet on it, shared
// by every test of the package.
type cluster struct {
	cp    *controlplane.ControlPlane
	admin kubernetes.Interface
	bin   string
}

// shared is started once, by the first test that asks for it (fleetCluster),
// and stopped by TestMain: starting a control plane and building the fleet
// take most of the package's time, and no test changes what another reads
// without putting it back.
var shared struct {
	once      sync.Once
	c         *cluster
	err       error
	stopNodes context.CancelFunc
	nodesDone chan error
}

// fleetCluster returns the shared cluster with the fleet built and settled,
// starting it on the first call; the test is skipped under -short.
func fleetCluster(t *testing.T) *cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real control plane")
	}
	// Built outside once.Do: Path fails the test that calls it itself.
	bin := rollscopebin.Path(t)
	shared.once.Do(func() {
		// Until start returns: it fails the first test itself (t.Fatal)
		// when the cluster never settles, and the others must not run on
		// half a fleet.
		shared.err = fmt.Errorf("it failed in the first test that started it; see there")
		shared.err = start(t, bin)
	})
	if shared.err != nil {
		t.Fatalf("the shared fleet cluster did not start: %v", shared.err)
	}
	return shared.c
}

// start builds (or finds) the control plane's binaries, starts it with the
// StatefulSet and DaemonSet controllers too, runs the hollow nodes until
// TestMain stops them, and builds the fleet.
func start(t *testing.T, bin string) error {
	ctx := context.Background()
	bins, err := cpbuild.Ensure(ctx, func(line string) { t.Log(line) })
	if err != nil {
		return fmt.Errorf("building the control plane: %w", err)
	}
	began := time.Now()
	cp, err := controlplane.Start(ctx, controlplane.Config{
		Binaries:    bins,
		Controllers: append(slices.Clone(controlplane.DefaultControllers), "statefulset-controller", "daemonset-controller"),
	})
	if err != nil {
		return fmt.Errorf("starting the control plane: %w", err)
	}
	t.Logf("control plane ready at %s in %s; its directory: %s", cp.URL, time.Since(began).Round(time.Millisecond), cp.Dir)
	c := &cluster{cp: cp, bin: bin}
	shared.c = c // from here on TestMain stops it
	if c.admin, err = cp.AdminClient(); err != nil {
		return err
	}
	nodesCtx, stopNodes := context.WithCancel(ctx)
	shared.stopNodes, shared.nodesDone = stopNodes, make(chan error, 1)
	go func() {
		shared.nodesDone <- live.Nodes{
			Groups: []nodegroup.Group{{
				Name: "hollow", Size: hollowNodes, Spec: "v1", BootTime: 500 * time.Millisecond,
				Capacity: corev1.ResourceList{
					corev1.ResourcePods:   resource.MustParse("110"),
					corev1.ResourceCPU:    resource.MustParse("8"),
					corev1.ResourceMemory: resource.MustParse("16Gi"),
				},
			}},
			Images: images,
			// Failed syncs are retried with back-off: not the tests'
			// business.
			OnError: func(string, string, error) {},
		}.Run(nodesCtx, c.admin)
	}()
	e2etest.WaitSchedulable(t, c.admin, hollowNodes, patience)
	building := time.Now()
	buildFleet(t, c)
	t.Logf("the fleet built and in its states in %s", time.Since(building).Round(100*time.Millisecond))
	return nil
}

// stopShared ends the hollow nodes and the control plane, keeping the
// control plane's directory and printing its logs when a test failed.
func stopShared(failed bool) {
	if shared.c == nil {
		return
	}
	if shared.stopNodes != nil {
		shared.stopNodes()
		if err := <-shared.nodesDone; err != nil {
			fmt.Fprintf(os.Stderr, "hollow nodes: %v\n", err)
		}
	}
	if failed || os.Getenv(controlplane.KeepEnv) != "" {
		shared.c.cp.KeepDir()
		fmt.Fprintf(os.Stderr, "keeping the control plane's directory %s\n", shared.c.cp.Dir)
	}
	if failed {
		fmt.Fprintln(os.Stderr, shared.c.cp.Logs(80))
	}
	shared.c.cp.Stop()
}
