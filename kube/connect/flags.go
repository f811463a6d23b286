package connect

import (
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// Flags are the connection flags kubectl users know.
type Flags struct {
	config *genericclioptions.ConfigFlags
	// offline is what a command can do without a cluster, said when
	// none is found and none was named ("rehearse it with --scenario").
	offline string
}

// Offline is f, saying what the command can do without a cluster when it
// finds none and was given no connection flag.
func (f *Flags) Offline(what string) *Flags {
	f.offline = what
	return f
}

// noCluster is the error of a Connect that finds no cluster: what to name,
// and, when no flag named one, what the command can do without.
func (f *Flags) noCluster(cause error, looked string) *Error {
	if f.Live() {
		return fail(cause, "no kubeconfig found (looked in %s): name one with --kubeconfig, or leave out the connection flags to run the embedded cluster", looked)
	}
	what := "no kubeconfig found (looked in %s), and no --kubeconfig or --server given: name the cluster with one of them"
	if f.offline != "" {
		return fail(cause, what+", or %s", looked, f.offline)
	}
	return fail(cause, what, looked)
}

// NewFlags returns the flags with kubectl's defaults.
func NewFlags() *Flags {
	// Not persistent: the loader is built anew on each Connect, so that a
	// switch of context or namespace (Switch) takes effect.
	config := genericclioptions.NewConfigFlags(false)
	// rollscope uses no discovery, so it has no cache to place.
	config.CacheDir = nil
	return &Flags{config: config}
}

// AddTo registers --kubeconfig, --context, -n/--namespace, --cluster,
// --user, -s/--server, --request-timeout and kubectl's other connection and
// impersonation flags on fs.
func (f *Flags) AddTo(fs *pflag.FlagSet) { f.config.AddFlags(fs) }

// Live reports whether the flags ask for a real cluster: any of
// --kubeconfig, --context, --cluster, --user or --server was given. Without
// them rollscope runs its embedded cluster.
func (f *Flags) Live() bool {
	for _, v := range []*string{f.config.KubeConfig, f.config.Context, f.config.ClusterName, f.config.AuthInfoName, f.config.APIServer} {
		if v != nil && *v != "" {
			return true
		}
	}
	return false
}
