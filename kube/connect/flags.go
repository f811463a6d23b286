package connect

import (
	"strings"

	"github.com/spf13/pflag"
	"k8s.io/client-go/tools/clientcmd"
)

// Flags are the connection flags kubectl users know: kubectl's own names,
// shorthands, defaults and help, bound to client-go's kubeconfig loader as
// kubectl binds them (cli-runtime's ConfigFlags, whose other half — the
// resource builder, kustomize — rollscope has no use for and would carry
// in every binary).
type Flags struct {
	kubeconfig, context, cluster, user, namespace, server, tlsServerName string
	certFile, keyFile, caFile, token, as, asUID, timeout                 string
	asGroups, asUserExtra                                                []string
	insecure, disableCompression, allContexts                            bool
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
func NewFlags() *Flags { return &Flags{timeout: "0"} }

// AddTo registers --kubeconfig, --context, -n/--namespace, --cluster,
// --user, -s/--server, --request-timeout and kubectl's other connection and
// impersonation flags on fs.
func (f *Flags) AddTo(fs *pflag.FlagSet) {
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "Path to the kubeconfig file to use for CLI requests.")
	fs.StringVar(&f.certFile, "client-certificate", "", "Path to a client certificate file for TLS")
	fs.StringVar(&f.keyFile, "client-key", "", "Path to a client key file for TLS")
	fs.StringVar(&f.token, "token", "", "Bearer token for authentication to the API server")
	fs.StringVar(&f.as, "as", "", "Username to impersonate for the operation. User could be a regular user or a service account in a namespace.")
	fs.StringVar(&f.asUID, "as-uid", "", "UID to impersonate for the operation.")
	fs.StringArrayVar(&f.asGroups, "as-group", nil, "Group to impersonate for the operation, this flag can be repeated to specify multiple groups.")
	fs.StringArrayVar(&f.asUserExtra, "as-user-extra", nil, "User extras to impersonate for the operation, this flag can be repeated to specify multiple values for the same key.")
	fs.StringVar(&f.cluster, "cluster", "", "The name of the kubeconfig cluster to use")
	fs.StringVar(&f.user, "user", "", "The name of the kubeconfig user to use")
	fs.StringVarP(&f.namespace, "namespace", "n", "", "If present, the namespace scope for this CLI request")
	fs.StringVar(&f.context, "context", "", "The name of the kubeconfig context to use; several, comma-separated, show their fleets as one")
	fs.BoolVar(&f.allContexts, "all-contexts", false, "show every context of the kubeconfig at once: one fleet across their clusters")
	fs.StringVarP(&f.server, "server", "s", "", "The address and port of the Kubernetes API server")
	fs.StringVar(&f.tlsServerName, "tls-server-name", "", "Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used")
	fs.BoolVar(&f.insecure, "insecure-skip-tls-verify", false, "If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure")
	fs.StringVar(&f.caFile, "certificate-authority", "", "Path to a cert file for the certificate authority")
	fs.StringVar(&f.timeout, "request-timeout", f.timeout, "The length of time to wait before giving up on a single server request. Non-zero values should contain a corresponding time unit (e.g. 1s, 2m, 3h). A value of zero means don't timeout requests.")
	fs.BoolVar(&f.disableCompression, "disable-compression", false, "If true, opt-out of response compression for all requests to the server")
}

// Live reports whether the flags ask for a real cluster: any of
// --kubeconfig, --context, --cluster, --user or --server was given. Without
// them rollscope runs its embedded cluster.
func (f *Flags) Live() bool {
	return f.kubeconfig != "" || f.context != "" || f.allContexts || f.cluster != "" || f.user != "" || f.server != ""
}

// loader reads the kubeconfig as kubectl does — --kubeconfig, else
// KUBECONFIG, else ~/.kube/config — with the flags overriding it. It is
// built anew on each call, so that a Switch of context or namespace takes
// effect at the next Connect.
func (f *Flags) loader() clientcmd.ClientConfig {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = f.kubeconfig
	// As kubectl: a kubeconfig that says nothing falls back to the pod's
	// in-cluster configuration.
	rules.DefaultClientConfig = &clientcmd.DefaultClientConfig
	o := &clientcmd.ConfigOverrides{ClusterDefaults: clientcmd.ClusterDefaults, CurrentContext: f.context, Timeout: f.timeout}
	o.AuthInfo.ClientCertificate, o.AuthInfo.ClientKey, o.AuthInfo.Token = f.certFile, f.keyFile, f.token
	o.AuthInfo.Impersonate, o.AuthInfo.ImpersonateUID, o.AuthInfo.ImpersonateGroups = f.as, f.asUID, f.asGroups
	for _, extra := range f.asUserExtra {
		if key, value, ok := strings.Cut(extra, "="); ok {
			if o.AuthInfo.ImpersonateUserExtra == nil {
				o.AuthInfo.ImpersonateUserExtra = map[string][]string{}
			}
			o.AuthInfo.ImpersonateUserExtra[key] = append(o.AuthInfo.ImpersonateUserExtra[key], value)
		}
	}
	o.ClusterInfo.Server, o.ClusterInfo.TLSServerName, o.ClusterInfo.CertificateAuthority = f.server, f.tlsServerName, f.caFile
	o.ClusterInfo.InsecureSkipTLSVerify, o.ClusterInfo.DisableCompression = f.insecure, f.disableCompression
	o.Context.Cluster, o.Context.AuthInfo, o.Context.Namespace = f.cluster, f.user, f.namespace
	return clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, o)
}

// User is the kubeconfig user the flags connect as: --as when it
// impersonates, else --user, else the context's; "" when unknown. A
// recording names it as the sender of the console's actions.
func (f *Flags) User() string {
	if f.as != "" {
		return f.as
	}
	if f.user != "" {
		return f.user
	}
	raw, err := f.loader().RawConfig()
	if err != nil {
		return ""
	}
	name := f.context
	if name == "" || strings.Contains(name, ",") {
		name = raw.CurrentContext
	}
	if c := raw.Contexts[name]; c != nil {
		return c.AuthInfo
	}
	return ""
}
