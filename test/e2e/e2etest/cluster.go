package e2etest

import (
	"context"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/argobuild"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/rollscopebin"
)

// Cluster is what a package's tests share: a real control plane started for
// the test, its admin's client, the hollow nodes running on it until the
// test ends, and the rollscope binary when the tests run it.
type Cluster struct {
	CP    *controlplane.ControlPlane
	Admin kubernetes.Interface
	// Bin is the rollscope binary built from this checkout, when
	// Setup.Rollscope asked for it.
	Bin string
	// Patience bounds Poll and Namespace; it only bounds a failing test.
	Patience time.Duration
	// Argo is Argo Rollouts' controller on the cluster, when Setup.Argo
	// asked for it.
	Argo *Argo
}

// Setup is what a package needs beside the control plane. The zero value
// is a control plane with the default controllers and nothing on it.
type Setup struct {
	// Patience bounds every wait on the cluster (default 2 minutes).
	Patience time.Duration
	// Rollscope builds the binary (Cluster.Bin) before the control plane
	// starts, while nothing else competes with the build for the CPU.
	Rollscope bool
	// Controllers run in kube-controller-manager beside
	// controlplane.DefaultControllers (the StatefulSet and DaemonSet
	// controllers, which a Deployment's rollout does without).
	Controllers []string
	// Nodes run until the test ends, and Start returns once every node of
	// their groups is Schedulable. A nil OnError logs failed syncs in the
	// test's output; IgnoreErrors drops them.
	Nodes live.Nodes
	// ServeLogs has the hollow kubelets serve their containers' logs over
	// TLS (kubelet.ListenLogs), so that the API server's pods/log reaches
	// them.
	ServeLogs bool
	// Beside adds controllers to the hollow nodes' runner, to act on the
	// nodes as a live simulate does (drains, node rolls).
	Beside func(*live.Runner)
	// Argo installs Argo Rollouts' CRDs and runs its real controller
	// (Cluster.Argo), built like the control plane into a cache first
	// (argobuild).
	Argo bool
}

// IgnoreErrors is a Nodes.OnError for tests that take the API server away
// on purpose: syncs fail meanwhile and are retried, which is not the
// test's business.
func IgnoreErrors(controller, key string, err error) {}

// Start starts the cluster that setup describes, stopped when the test
// ends. Under -short it skips the test: it needs a real control plane.
func Start(t testing.TB, setup Setup) *Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real control plane")
	}
	c := &Cluster{Patience: setup.Patience}
	if c.Patience == 0 {
		c.Patience = 2 * time.Minute
	}
	if setup.Rollscope {
		c.Bin = rollscopebin.Path(t)
	}
	var argo argobuild.Build
	if setup.Argo {
		argo = buildArgo(t)
	}
	var cfg controlplane.Config
	if len(setup.Controllers) > 0 {
		cfg.Controllers = append(slices.Clone(controlplane.DefaultControllers), setup.Controllers...)
	}
	c.CP = controlplane.StartForTestWith(t, cfg)
	admin, err := c.CP.AdminClient()
	if err != nil {
		t.Fatal(err)
	}
	c.Admin = admin
	if setup.Argo {
		c.Argo = startArgo(t, c, argo)
	}
	nodes := setup.Nodes
	if len(nodes.Groups) == 0 {
		return c
	}
	if nodes.OnError == nil {
		nodes.OnError = func(controller, key string, err error) { t.Logf("hollow %s %s: %v", controller, key, err) }
	}
	if setup.ServeLogs {
		nodes.Logs = serveLogs(t)
	}
	runNodes(t, admin, nodes, setup.Beside)
	want := 0
	for _, g := range nodes.Groups {
		want += g.Size
	}
	WaitSchedulable(t, admin, want, c.Patience)
	return c
}

// Poll is the package-level Poll bounded by the cluster's patience.
func (c *Cluster) Poll(t testing.TB, what string, check Check) {
	t.Helper()
	Poll(t, c.Patience, what, check)
}

// Namespace creates namespace ns, ready for pods (see Namespace).
func (c *Cluster) Namespace(t testing.TB, ns string) {
	t.Helper()
	Namespace(t, c.Admin, ns, c.Patience)
}

// HollowGroup is the plain group most tests run: size nodes named
// hollow-N on spec v1, Ready bootTime after they are created.
func HollowGroup(size int, bootTime time.Duration, capacity corev1.ResourceList) nodegroup.Group {
	return nodegroup.Group{Name: "hollow", Size: size, Spec: "v1", BootTime: bootTime, Capacity: capacity}
}

// Capacity is a hollow node's: how many pods, CPUs and memory it offers
// the scheduler.
func Capacity(pods, cpu, memory string) corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourcePods:   resource.MustParse(pods),
		corev1.ResourceCPU:    resource.MustParse(cpu),
		corev1.ResourceMemory: resource.MustParse(memory),
	}
}

// RunHollowNodes runs nodes against client until the test ends, and fails
// the test if they stop with an error.
func RunHollowNodes(t testing.TB, client kubernetes.Interface, nodes live.Nodes) {
	t.Helper()
	runNodes(t, client, nodes, nil)
}

// runNodes is RunHollowNodes with beside's controllers on the same runner
// (live.Nodes.Run, with more added).
func runNodes(t testing.TB, client kubernetes.Interface, nodes live.Nodes, beside func(*live.Runner)) {
	t.Helper()
	r, err := live.NewRunner(client, nodes.OnError)
	if err != nil {
		t.Fatal(err)
	}
	nodes.AddTo(r)
	if beside != nil {
		beside(r)
	}
	background(t, "hollow nodes", r.Run)
}

// serveLogs starts a hollow kubelets' log server, served until the test
// ends.
func serveLogs(t testing.TB) *kubelet.LogServer {
	t.Helper()
	srv, err := kubelet.ListenLogs(kubelet.NewLogs())
	if err != nil {
		t.Fatal(err)
	}
	background(t, "hollow kubelet's log server", srv.Serve)
	return srv
}

// background runs run until the test ends, and fails the test if it
// returns an error.
func background(t testing.TB, what string, run func(context.Context) error) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", what, err)
		}
	})
}
