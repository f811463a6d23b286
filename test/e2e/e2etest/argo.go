package e2etest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"rollscope/test/e2e/argobuild"
)

// Argo is Argo Rollouts' real controller running against the cluster
// (Setup.Argo): its CRDs installed and Established, `rollouts-controller`
// running with the admin's kubeconfig until the cluster ends.
type Argo struct {
	// Dynamic reads and writes Argo's kinds (RolloutsGVR and the others).
	Dynamic dynamic.Interface
	// Log is the controller's log file, in the control plane's logs/
	// directory (kept when a test fails).
	Log string
	// Build is the cached controller and CRDs it runs from.
	Build argobuild.Build
}

// Argo's kinds, as the dynamic client asks for them.
var (
	RolloutsGVR          = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "rollouts"}
	AnalysisRunsGVR      = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "analysisruns"}
	AnalysisTemplatesGVR = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "analysistemplates"}
	ExperimentsGVR       = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "experiments"}
)

// argoNamespace is the controller's own namespace (POD_NAMESPACE), where it
// looks for its optional config maps.
const argoNamespace = "argo-rollouts"

// buildArgo finds (or builds) the controller before the control plane
// starts, while nothing else competes with the build for the CPU.
func buildArgo(t testing.TB) argobuild.Build {
	t.Helper()
	b, err := argobuild.Ensure(t.Context(), func(line string) { t.Log(line) })
	if err != nil {
		t.Fatalf("building Argo Rollouts' controller: %v", err)
	}
	if b.Built {
		t.Logf("built Argo Rollouts %s in %s", argobuild.Version, b.Took.Round(time.Second))
	}
	return b
}

// startArgo installs Argo's CRDs on c, waits until they are Established,
// and runs the controller until the test (for a PackageTB: the package)
// ends.
func startArgo(t testing.TB, c *Cluster, b argobuild.Build) *Argo {
	t.Helper()
	started := time.Now()
	cfg := c.CP.AdminConfig()
	ext, err := apiextensions.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range b.CRDPaths() {
		installCRD(t, c, ext, path)
	}
	if _, err := c.Admin.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: argoNamespace}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating namespace %s: %v", argoNamespace, err)
	}
	a := &Argo{Dynamic: dyn, Log: filepath.Join(c.CP.Dir, "logs", argobuild.Controller+".log"), Build: b}
	runArgo(t, c, a)
	t.Logf("Argo Rollouts %s running in %s (log: %s)", argobuild.Version, time.Since(started).Round(time.Millisecond), a.Log)
	return a
}

// installCRD creates the CRD in path and waits until the API server serves
// it (Established).
func installCRD(t testing.TB, c *Cluster, ext apiextensions.Interface, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatalf("reading Argo's CRD %s: %v", path, err)
	}
	if _, err := ext.ApiextensionsV1().CustomResourceDefinitions().Create(t.Context(), &crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("installing Argo's CRD %s: %v", crd.Name, err)
	}
	c.Poll(t, "CRD "+crd.Name+" Established", func(ctx context.Context) (bool, string, error) {
		got, err := ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crd.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		for _, cond := range got.Status.Conditions {
			if cond.Type == apiextensionsv1.Established {
				return cond.Status == apiextensionsv1.ConditionTrue, "Established=" + string(cond.Status) + ": " + cond.Message, nil
			}
		}
		return false, "no Established condition yet", nil
	})
}

// runArgo starts rollouts-controller with the admin's kubeconfig, without
// leader election, its metrics and healthz servers on free ports (so
// packages run in parallel never collide), and waits for its healthz.
// It is stopped (SIGTERM, then SIGKILL) when the test ends; when the test
// failed, its log's tail is printed.
func runArgo(t testing.TB, c *Cluster, a *Argo) {
	t.Helper()
	ports, err := freePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(a.Log)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, a.Build.Controller(),
		"--kubeconfig="+c.CP.AdminKubeconfig,
		"--leader-elect=false",
		"--metricsPort="+strconv.Itoa(ports[0]),
		"--healthzPort="+strconv.Itoa(ports[1]),
		"--loglevel=info",
	)
	cmd.Env = append(os.Environ(), "POD_NAMESPACE="+argoNamespace)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// The controller dies with the test binary, and stops gracefully first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		stop()
		logFile.Close()
		t.Fatalf("starting %s: %v", a.Build.Controller(), err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stop()
		<-exited
		logFile.Close()
		if t.Failed() {
			t.Logf("%s's last lines (%s):\n%s", argobuild.Controller, a.Log, tail(a.Log, 60))
		}
	})
	healthz := fmt.Sprintf("http://127.0.0.1:%d/healthz", ports[1])
	var exit error
	gone := false
	c.Poll(t, argobuild.Controller+"'s healthz", func(ctx context.Context) (bool, string, error) {
		select {
		case exit = <-exited:
			exited <- exit
			gone = true
			return true, "exited", nil
		default:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, healthz, nil)
		if err != nil {
			return false, "", err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false, "", err
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status, nil
	})
	if gone {
		t.Fatalf("%s exited: %v\n%s", argobuild.Controller, exit, tail(a.Log, 40))
	}
}

// freePorts asks the kernel for n free TCP ports. The controller binds
// them on every interface, so they are taken the same way.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", ":0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// tail is the last n lines of the file at path.
func tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
