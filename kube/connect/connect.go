package connect

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"rollscope/kube/objects"
)

// Connection is a client for a cluster that answered.
type Connection struct {
	Client kubernetes.Interface
	// Context is the kubeconfig context used, "" when only --server was given.
	Context string
	// Namespace is -n, else the context's namespace, else "default".
	Namespace string
	// Server is the API server's URL.
	Server string
	// config is what Client was built from, for a client of other rate
	// limits on the same server and credentials.
	config *rest.Config
}

// WithRate is a client of the same server, credentials and transport
// settings with another rate limit: client-go's default of 5 requests a
// second is right for a console, not for a run that speaks for a group of
// kubelets.
func (c *Connection) WithRate(qps float32, burst int) (kubernetes.Interface, error) {
	if c.config == nil {
		return c.Client, nil
	}
	cfg := rest.CopyConfig(c.config)
	cfg.QPS, cfg.Burst = qps, burst
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("cannot make a client for the API server %s: %w", c.Server, err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("cannot make a client for the API server %s: %w", c.Server, err)
	}
	return objects.WithDynamic(client, dyn), nil
}

// RESTConfig is a copy of what Client was built from, for clients that
// decode differently (the watch's pods); nil when Client was given whole.
func (c *Connection) RESTConfig() *rest.Config {
	if c.config == nil {
		return nil
	}
	return rest.CopyConfig(c.config)
}

// checkTimeout bounds the first request, so that a server that swallows
// packets fails in seconds rather than at the TCP timeout.
const checkTimeout = 15 * time.Second

// Connect loads the kubeconfig as kubectl would, builds a client, and lists
// deployments in the namespace to prove the server is reachable and the
// credentials are accepted there.
func (f *Flags) Connect(ctx context.Context) (*Connection, error) {
	loader := f.loader()
	raw, err := loader.RawConfig()
	if err != nil {
		return nil, fail(err, "cannot read the kubeconfig %s: %v — fix the file, or name another with --kubeconfig", files(loader), err)
	}
	name := f.context
	if name == "" {
		name = raw.CurrentContext
	}
	if err := f.checkContext(raw, name, loader); err != nil {
		return nil, err
	}

	// With nothing to go on, client-go would quietly try http://localhost:8080.
	if len(raw.Clusters) == 0 && f.server == "" && os.Getenv("KUBERNETES_SERVICE_HOST") == "" {
		return nil, f.noCluster(clientcmd.ErrEmptyConfig, files(loader))
	}
	rc, err := loader.ClientConfig()
	switch {
	case clientcmd.IsEmptyConfig(err):
		return nil, f.noCluster(err, files(loader))
	case err != nil:
		return nil, fail(err, "cannot use context %q from %s: %v — fix the kubeconfig, or pick another context with --context", name, files(loader), err)
	}
	ns, _, err := loader.Namespace()
	if err != nil {
		return nil, fail(err, "cannot read the namespace of context %q from %s: %v", name, files(loader), err)
	}
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	speakProtobuf(rc)
	client, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, fail(err, "cannot make a client for the API server %s (context %q): %v — check the server address and TLS settings in the kubeconfig", rc.Host, name, err)
	}
	dyn, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil, fail(err, "cannot make a client for the API server %s (context %q): %v — check the server address and TLS settings in the kubeconfig", rc.Host, name, err)
	}
	c := &Connection{Client: objects.WithDynamic(client, dyn), Context: name, Namespace: ns, Server: rc.Host, config: rc}

	check, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	if _, err := client.AppsV1().Deployments(ns).List(check, metav1.ListOptions{Limit: 1}); err != nil {
		return nil, c.explain(err)
	}
	return c, nil
}

// checkContext refuses a context the kubeconfig does not hold, listing the
// ones it does, before client-go's vaguer error would.
func (f *Flags) checkContext(raw clientcmdapi.Config, name string, loader clientcmd.ClientConfig) error {
	if name == "" {
		return nil
	}
	if _, ok := raw.Contexts[name]; ok {
		return nil
	}
	known := make([]string, 0, len(raw.Contexts))
	for c := range raw.Contexts {
		known = append(known, c)
	}
	slices.Sort(known)
	listed := "none"
	if len(known) > 0 {
		listed = strings.Join(known, ", ")
	}
	where := ""
	if f.context == "" {
		where = " (it is the current-context)"
	}
	e := badInputf("context %q%s is not in %s (contexts: %s)", name, where, files(loader), listed)
	e.err = fmt.Errorf("context %q not found", name)
	return e
}

// files names the kubeconfig files that were read, as kubectl resolves them.
func files(loader clientcmd.ClientConfig) string {
	access := loader.ConfigAccess()
	if f := access.GetExplicitFile(); f != "" {
		return f
	}
	return strings.Join(access.GetLoadingPrecedence(), ":")
}
