// Package connect turns kubectl's connection flags into a client for a live
// cluster, and proves the cluster answers before the console starts.
//
// The flags are kubectl's (cli-runtime's, bound the same way), so --kubeconfig, KUBECONFIG, --context and -n
// mean what they mean to kubectl (the namespace comes from the context when
// -n is absent). A failure to connect is one line that names what was tried
// and what to do about it.
package connect
