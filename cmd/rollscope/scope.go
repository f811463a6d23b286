package main

import (
	"context"
	"fmt"

	"rollscope/kube/access"
	"rollscope/kube/connect"
)

// allNamespaces decides whether -A can be honoured on a live cluster: a
// user whom RBAC does not let list deployments and pods in every namespace
// gets the kubeconfig's namespace instead, and the one line that says so.
func allNamespaces(ctx context.Context, conn *connect.Connection) (bool, string) {
	client, err := conn.WithRate(accessQPS, accessBurst)
	if err != nil {
		return true, ""
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	if why := access.AllNamespaces(ctx, client); why != "" {
		return false, scopeNote(why, conn.Namespace)
	}
	return true, ""
}

// scopeNote is the line -A's fallback prints on the console and on stderr.
func scopeNote(why, namespace string) string {
	return fmt.Sprintf("-A: %s; showing namespace %s", why, namespace)
}
