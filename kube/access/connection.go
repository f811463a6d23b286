package access

import (
	"context"
	"fmt"
	"time"

	"rollscope/kube/connect"
	"rollscope/model/action"
)

// checkTimeout bounds the permission checks at start: a slow API server
// delays the first frame by at most this much.
const checkTimeout = 5 * time.Second

// The permission checks' own rate limit: they are a burst of one
// SelfSubjectAccessReview per permission in the action table, asked at
// once before the first frame, more than client-go's default burst of 10
// lets through without waiting.
const (
	checkQPS   = 50
	checkBurst = 50
)

// OnConnection is what the console may do on conn, the keys a live cluster
// will not allow with the reason (SelfSubjectAccessReviews): with readOnly
// nothing is written, and only what reads (logs) is asked.
func OnConnection(ctx context.Context, conn *connect.Connection, readOnly, deleteNodes bool) (map[action.Name]string, error) {
	client, err := conn.WithRate(checkQPS, checkBurst)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	if readOnly {
		return DeniedReads(ctx, client, conn.Namespace), nil
	}
	return Denied(ctx, client, conn.Namespace, deleteNodes), nil
}

// AllNamespacesOn decides whether -A can be honoured on conn: a user whom
// RBAC does not let list deployments and pods in every namespace gets the
// kubeconfig's namespace instead, and the one line that says so.
func AllNamespacesOn(ctx context.Context, conn *connect.Connection) (bool, string) {
	client, err := conn.WithRate(checkQPS, checkBurst)
	if err != nil {
		return true, ""
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	if why := AllNamespaces(ctx, client); why != "" {
		return false, scopeNote(why, conn.Namespace)
	}
	return true, ""
}

// scopeNote is the line -A's fallback prints on the console and on stderr.
func scopeNote(why, namespace string) string {
	return fmt.Sprintf("-A: %s; showing namespace %s", why, namespace)
}
