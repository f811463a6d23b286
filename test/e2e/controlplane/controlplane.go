package controlplane

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"rollscope/test/e2e/cpbuild"
)

// Users the API server knows, by static token.
const (
	AdminUser  = "rollscope-e2e-admin"
	ViewerUser = "rollscope-e2e-viewer"
	// ViewerGroup is bound to a cluster role that may get, list and watch
	// every resource and nothing else.
	ViewerGroup = "rollscope-e2e:viewers"
)

// DefaultControllers are the kube-controller-manager controllers started
// unless Config.Controllers says otherwise: what a Deployment rollout needs,
// plus namespace cleanup and pod garbage collection for hollow nodes.
var DefaultControllers = []string{
	"deployment-controller",
	"replicaset-controller",
	"replicationcontroller-controller",
	"disruption-controller",
	"garbage-collector-controller",
	"serviceaccount-controller",
	"serviceaccount-token-controller",
	"clusterrole-aggregation-controller",
	"namespace-controller",
	"pod-garbage-collector-controller",
}

// Config says how to start a control plane. The zero value is usable once
// Binaries is set.
type Config struct {
	Binaries cpbuild.Binaries
	// Dir holds certificates, kubeconfigs, etcd data and logs. Empty: a new
	// temporary directory, removed by Stop unless KeepDir.
	Dir     string
	KeepDir bool
	// Controllers overrides DefaultControllers.
	Controllers []string
	// StartTimeout bounds waiting for every component to be ready (default 2m).
	StartTimeout time.Duration
	// APIQPS, when set, is the controller manager's and the scheduler's
	// request rate (burst twice it) in place of their defaults (20 and 50 a
	// second): at the default, 30,000 pods take the controller manager 25
	// minutes to create.
	APIQPS int
	// Nice, when set, runs every component at that niceness (nice(1)):
	// below the consoles a harness measures beside it on the same two
	// cores, as a cluster's control plane runs on machines other than its
	// operator's.
	Nice int
}

// ControlPlane is a running control plane.
type ControlPlane struct {
	// Dir holds the files below and the logs/ directory.
	Dir string
	// URL of the API server, https://127.0.0.1:PORT.
	URL string
	// AdminKubeconfig and ViewerKubeconfig are kubeconfig files for the two
	// users; each has a single context named after its user.
	AdminKubeconfig, ViewerKubeconfig string
	// CAData is the PEM CA the API server's certificate chains to.
	CAData []byte

	adminToken, viewerToken string
	keepDir                 bool

	etcd, apiserver, controllerManager, scheduler *process
	// controllerManagerHealth is its /healthz, for a restart.
	controllerManagerHealth string
}

// Start writes the key material and starts etcd, the API server, the
// controller manager and the scheduler, waiting until each is healthy and the
// view-only user's role exists. On error everything started is stopped again
// and the directory is kept for its logs.
//
// Ports are picked free just before the components bind them; if another
// process takes one in between, Start tries again on fresh ports.
func Start(ctx context.Context, cfg Config) (*ControlPlane, error) {
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = 2 * time.Minute
	}
	if len(cfg.Controllers) == 0 {
		cfg.Controllers = DefaultControllers
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
	defer cancel()

	const attempts = 3
	for attempt := 1; ; attempt++ {
		cp, err := startOnce(ctx, cfg)
		if err == nil {
			return cp, nil
		}
		if attempt == attempts || ctx.Err() != nil || !strings.Contains(err.Error(), "address already in use") {
			return nil, err
		}
		// A lost race for a port: start over in a clean directory.
		if cfg.Dir == "" && cp != nil {
			_ = os.RemoveAll(cp.Dir)
		} else if err := clearDir(cfg.Dir); err != nil {
			return nil, err
		}
	}
}

func clearDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("clearing %s for another start: %w", dir, err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("clearing %s for another start: %w", dir, err)
		}
	}
	return nil
}

// startOnce is one attempt of Start. On error it returns the stopped control
// plane too, so that Start can clean up its directory.
func startOnce(ctx context.Context, cfg Config) (cp *ControlPlane, err error) {
	dir := cfg.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "rollscope-controlplane-"); err != nil {
			return nil, fmt.Errorf("creating a directory for the control plane: %w", err)
		}
	}
	cp = &ControlPlane{Dir: dir, keepDir: cfg.KeepDir || cfg.Dir != ""}
	defer func() {
		if err != nil {
			err = fmt.Errorf("%w\n%s", err, cp.Logs(40))
			cp.keepDir = true // the caller needs the logs the error points to
			cp.Stop()
		}
	}()
	for _, sub := range []string{"logs", "pki", "etcd", "certs"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return cp, fmt.Errorf("creating %s in the control-plane directory: %w", sub, err)
		}
	}
	keys, err := writePKI(filepath.Join(dir, "pki"))
	if err != nil {
		return cp, err
	}
	cp.CAData = keys.caPEM
	ports, err := freePorts(5)
	if err != nil {
		return cp, err
	}
	etcdClient, etcdPeer, apiPort, kcmPort, schedPort := ports[0], ports[1], ports[2], ports[3], ports[4]
	cp.URL = "https://" + hostPort(apiPort)

	tokens, err := cp.writeTokens(filepath.Join(dir, "pki", "tokens.csv"))
	if err != nil {
		return cp, err
	}
	if cp.AdminKubeconfig, err = writeKubeconfig(filepath.Join(dir, "admin.kubeconfig"), AdminUser, cp.URL, cp.CAData, cp.adminToken); err != nil {
		return cp, err
	}
	if cp.ViewerKubeconfig, err = writeKubeconfig(filepath.Join(dir, "viewer.kubeconfig"), ViewerUser, cp.URL, cp.CAData, cp.viewerToken); err != nil {
		return cp, err
	}
	kcmKubeconfig, err := writeKubeconfig(filepath.Join(dir, "kube-controller-manager.kubeconfig"), "system:kube-controller-manager", cp.URL, cp.CAData, tokens.controllerManager)
	if err != nil {
		return cp, err
	}
	schedulerKubeconfig, err := writeKubeconfig(filepath.Join(dir, "kube-scheduler.kubeconfig"), "system:kube-scheduler", cp.URL, cp.CAData, tokens.scheduler)
	if err != nil {
		return cp, err
	}

	bins := cfg.Binaries
	logs := filepath.Join(dir, "logs")
	cp.etcd = &process{name: "etcd", path: bins.Path(cpbuild.Etcd), logPath: filepath.Join(logs, "etcd.log"), args: []string{
		"--name=rollscope-e2e",
		"--data-dir=" + filepath.Join(dir, "etcd"),
		"--listen-client-urls=http://" + hostPort(etcdClient),
		"--advertise-client-urls=http://" + hostPort(etcdClient),
		"--listen-peer-urls=http://" + hostPort(etcdPeer),
		"--initial-advertise-peer-urls=http://" + hostPort(etcdPeer),
		"--initial-cluster=rollscope-e2e=http://" + hostPort(etcdPeer),
		// The data lives for one test run: durability buys nothing and fsync
		// on a shared 2-core machine costs seconds per rollout.
		"--unsafe-no-fsync",
		"--log-level=warn",
	}}
	cp.apiserver = &process{name: "kube-apiserver", path: bins.Path(cpbuild.KubeAPIServer), logPath: filepath.Join(logs, "kube-apiserver.log"), args: []string{
		"--etcd-servers=http://" + hostPort(etcdClient),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", apiPort),
		"--cert-dir=" + filepath.Join(dir, "certs"),
		"--tls-cert-file=" + keys.servingCert,
		"--tls-private-key-file=" + keys.servingKey,
		"--client-ca-file=" + keys.caFile,
		"--token-auth-file=" + filepath.Join(dir, "pki", "tokens.csv"),
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + keys.saPublic,
		"--service-account-signing-key-file=" + keys.saPrivate,
		"--service-cluster-ip-range=10.96.0.0/16",
		// pods/log dials the node's InternalIP first: hollow nodes that
		// serve logs advertise their kubelet on 127.0.0.1, and their
		// Hostname address (the node's name) resolves nowhere. Without
		// --kubelet-certificate-authority the kubelet's certificate is
		// not verified, so their self-signed one does.
		"--kubelet-preferred-address-types=InternalIP,Hostname",
		"--profiling=false",
		"--v=1",
	}}
	cp.controllerManager = &process{name: "kube-controller-manager", path: bins.Path(cpbuild.KubeControllerMgr), logPath: filepath.Join(logs, "kube-controller-manager.log"), args: []string{
		"--kubeconfig=" + kcmKubeconfig,
		"--controllers=" + strings.Join(cfg.Controllers, ","),
		"--leader-elect=false",
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", kcmPort),
		"--cert-dir=" + filepath.Join(dir, "certs", "kcm"),
		"--service-account-private-key-file=" + keys.saPrivate,
		"--root-ca-file=" + keys.caFile,
		"--use-service-account-credentials=false",
		"--profiling=false",
		"--v=1",
	}}
	cp.controllerManager.args = append(cp.controllerManager.args, rate(cfg.APIQPS)...)
	cp.scheduler = &process{name: "kube-scheduler", path: bins.Path(cpbuild.KubeScheduler), logPath: filepath.Join(logs, "kube-scheduler.log"), args: []string{
		"--kubeconfig=" + schedulerKubeconfig,
		"--leader-elect=false",
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", schedPort),
		"--cert-dir=" + filepath.Join(dir, "certs", "scheduler"),
		"--profiling=false",
		"--v=1",
	}}
	cp.scheduler.args = append(cp.scheduler.args, rate(cfg.APIQPS)...)
	for _, p := range []*process{cp.etcd, cp.apiserver, cp.controllerManager, cp.scheduler} {
		p.nice = cfg.Nice
	}

	if err := cp.etcd.start(); err != nil {
		return cp, err
	}
	if err := waitHealthy(ctx, cp.etcd, "http://"+hostPort(etcdClient)+"/health", nil, nil); err != nil {
		return cp, err
	}
	if err := cp.StartAPIServer(ctx); err != nil {
		return cp, err
	}
	if err := cp.grantViewer(ctx); err != nil {
		return cp, err
	}
	for _, c := range []struct {
		p    *process
		port int
	}{{cp.controllerManager, kcmPort}, {cp.scheduler, schedPort}} {
		if err := c.p.start(); err != nil {
			return cp, err
		}
		// Their serving certificates are self-signed; /healthz is open to
		// anyone, so an unauthenticated, unverified probe is enough.
		if err := waitHealthy(ctx, c.p, "https://"+hostPort(c.port)+"/healthz", nil, nil); err != nil {
			return cp, err
		}
	}
	cp.controllerManagerHealth = "https://" + hostPort(kcmPort) + "/healthz"
	return cp, nil
}

type tokens struct{ controllerManager, scheduler string }

// writeTokens writes the static token file: the admin and the components are
// system:masters, the viewer only in ViewerGroup.
func (cp *ControlPlane) writeTokens(path string) (tokens, error) {
	var t tokens
	for _, dst := range []*string{&cp.adminToken, &cp.viewerToken, &t.controllerManager, &t.scheduler} {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return t, fmt.Errorf("generating a token: %w", err)
		}
		*dst = hex.EncodeToString(b)
	}
	// The controller manager runs every controller under its own identity
	// (--use-service-account-credentials=false), which needs more than the
	// bootstrap system:kube-controller-manager role grants; the components
	// are trusted like the admin.
	lines := []string{
		fmt.Sprintf("%s,%s,%s,\"system:masters\"", cp.adminToken, AdminUser, AdminUser),
		fmt.Sprintf("%s,%s,%s,\"%s\"", cp.viewerToken, ViewerUser, ViewerUser, ViewerGroup),
		fmt.Sprintf("%s,system:kube-controller-manager,system:kube-controller-manager,\"system:masters\"", t.controllerManager),
		fmt.Sprintf("%s,system:kube-scheduler,system:kube-scheduler,\"system:masters\"", t.scheduler),
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		return t, fmt.Errorf("writing the token file %s: %w", path, err)
	}
	return t, nil
}

// StartAPIServer starts (or restarts, after StopAPIServer) the API server on
// the same port and waits until it is ready.
func (cp *ControlPlane) StartAPIServer(ctx context.Context) error {
	if err := cp.apiserver.start(); err != nil {
		return err
	}
	return waitHealthy(ctx, cp.apiserver, cp.URL+"/readyz", cp.CAData, &cp.adminToken)
}

// StopControllerManager stops the controller manager and waits until it
// has exited; StartControllerManager starts it again, and it lists every
// object anew: objects written meanwhile are first seen together, each
// controller's caches consistent with one another when it begins, as when
// a cluster's controller manager restarts.
func (cp *ControlPlane) StopControllerManager() { cp.controllerManager.stop(15 * time.Second) }

// StartControllerManager starts the controller manager again after
// StopControllerManager and waits until it is healthy.
func (cp *ControlPlane) StartControllerManager(ctx context.Context) error {
	if err := cp.controllerManager.start(); err != nil {
		return err
	}
	return waitHealthy(ctx, cp.controllerManager, cp.controllerManagerHealth, nil, nil)
}

// StopAPIServer stops the API server and waits until it has exited, leaving
// etcd, the controller manager and the scheduler running: clients see the
// connection refused until StartAPIServer. With clients watching, the API
// server stops listening at once on SIGTERM but does not exit for a minute
// (its HTTP server waits for the watch connections), so after a short grace
// it is killed, as a crashed or evicted API server would be.
func (cp *ControlPlane) StopAPIServer() { cp.apiserver.stop(apiServerStopGrace) }

const apiServerStopGrace = 3 * time.Second

// rate is a component's flags for Config.APIQPS: none when it is not set.
func rate(qps int) []string {
	if qps <= 0 {
		return nil
	}
	return []string{fmt.Sprintf("--kube-api-qps=%d", qps), fmt.Sprintf("--kube-api-burst=%d", 2*qps)}
}

// AdminConfig returns a REST config for the admin user.
func (cp *ControlPlane) AdminConfig() *rest.Config { return cp.restConfig(cp.adminToken) }

// ViewerConfig returns a REST config for the view-only user.
func (cp *ControlPlane) ViewerConfig() *rest.Config { return cp.restConfig(cp.viewerToken) }

// ClientQPS and ClientBurst are the request rate of the clients the control
// plane hands out, which the tests' hollow nodes share: client-go's default
// of 5 a second would leave most of a large rollout's pods waiting.
const (
	ClientQPS   = 200
	ClientBurst = 400
)

func (cp *ControlPlane) restConfig(token string) *rest.Config {
	return &rest.Config{
		Host:            cp.URL,
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{CAData: cp.CAData},
		QPS:             ClientQPS,
		Burst:           ClientBurst,
	}
}

// AdminClient returns a clientset for the admin user.
func (cp *ControlPlane) AdminClient() (kubernetes.Interface, error) {
	c, err := kubernetes.NewForConfig(cp.AdminConfig())
	if err != nil {
		return nil, fmt.Errorf("building an admin client for %s: %w", cp.URL, err)
	}
	return c, nil
}

// Stop stops the components in reverse order, waiting for each to exit, and
// removes the directory unless it was asked to be kept. It is safe to call
// more than once.
func (cp *ControlPlane) Stop() {
	for _, p := range []*process{cp.scheduler, cp.controllerManager, cp.apiserver, cp.etcd} {
		if p != nil {
			p.stop(15 * time.Second)
		}
	}
	if !cp.keepDir && cp.Dir != "" {
		_ = os.RemoveAll(cp.Dir)
	}
}

// KeepDir makes Stop leave the directory (certificates, kubeconfigs, logs) in
// place, e.g. because a test failed and someone will read the logs.
func (cp *ControlPlane) KeepDir() { cp.keepDir = true }

// Logs returns the last lines of every component's log, for a failure report.
func (cp *ControlPlane) Logs(lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "control-plane logs in %s:\n", filepath.Join(cp.Dir, "logs"))
	for _, p := range []*process{cp.etcd, cp.apiserver, cp.controllerManager, cp.scheduler} {
		if p == nil {
			continue
		}
		fmt.Fprintf(&b, "----- %s (last %d lines) -----\n%s\n", p.name, lines, p.tail(lines))
	}
	return b.String()
}
