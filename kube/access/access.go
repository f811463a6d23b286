// Package access asks the API server which of rollscope's actions the
// current user may take, with SelfSubjectAccessReviews, so that the
// console can show the keys it may not use as disabled, with the reason,
// instead of failing after the operator has typed an image. What each
// action needs is its action.Spec's Needs: this package only asks.
package access

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/model/action"
)

// Denied asks about every permission of every action once, and returns
// the actions the user may not take with the reason, by action name.
// Namespaced permissions are asked in namespace, cluster-wide ones (nodes,
// evictions) with no namespace. With deleteNodes (--delete-nodes) a
// node-group roll must also delete Node objects. A review that cannot be
// made (the API refuses the review itself) denies nothing: the action will
// then say why when it is tried.
func Denied(ctx context.Context, c kubernetes.Interface, namespace string, deleteNodes bool) map[action.Name]string {
	return denied(ctx, c, namespace, deleteNodes, action.Specs())
}

// DeniedReads is Denied for the actions that only read (logs), for a
// console started with --read-only, which asks nothing about writes.
func DeniedReads(ctx context.Context, c kubernetes.Interface, namespace string) map[action.Name]string {
	var reads []action.Spec
	for _, s := range action.Specs() {
		if !s.Writes {
			reads = append(reads, s)
		}
	}
	return denied(ctx, c, namespace, false, reads)
}

// denied is Denied for specs only.
func denied(ctx context.Context, c kubernetes.Interface, namespace string, deleteNodes bool, specs []action.Spec) map[action.Name]string {
	needs := make([][]action.Permission, len(specs))
	var asked []action.Permission
	for i, s := range specs {
		needs[i] = s.Needs
		if s.Name == action.RollGroup && deleteNodes {
			needs[i] = append(slices.Clip(s.Needs), action.DeleteNodes)
		}
		for _, p := range needs[i] {
			if !slices.Contains(asked, p) {
				asked = append(asked, p)
			}
		}
	}
	answers := ask(ctx, c, namespace, asked)
	out := map[action.Name]string{}
	for i, s := range specs {
		var missing []string
		for _, p := range needs[i] {
			if why := answers[p]; why != "" {
				missing = append(missing, why)
			}
		}
		if len(missing) > 0 {
			out[s.Name] = "not allowed: " + strings.Join(missing, "; ")
		}
	}
	return out
}

// inFlight bounds the reviews asked at once.
const inFlight = 8

// ask reviews every permission once, several at a time: the console's first
// frame waits for the answers, and one after the other they would cost a
// round trip each.
func ask(ctx context.Context, c kubernetes.Interface, namespace string, perms []action.Permission) map[action.Permission]string {
	whys := make([]string, len(perms))
	slots := make(chan struct{}, inFlight)
	var wg sync.WaitGroup
	for i, p := range perms {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			whys[i] = review(ctx, c, namespace, p)
		})
	}
	wg.Wait()
	out := make(map[action.Permission]string, len(perms))
	for i, p := range perms {
		out[p] = whys[i]
	}
	return out
}

// review says why p is denied, "" when it is allowed or the answer is
// unknown.
func review(ctx context.Context, c kubernetes.Interface, namespace string, p action.Permission) string {
	where := fmt.Sprintf("in namespace %q", namespace)
	if p.ClusterWide {
		namespace, where = "", "cluster-wide"
	}
	r := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Namespace: namespace, Verb: p.Verb, Group: p.Group, Resource: p.Resource, Subresource: p.Subresource,
		},
	}}
	got, err := c.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, r, metav1.CreateOptions{})
	if err != nil || got.Status.Allowed {
		return ""
	}
	why := fmt.Sprintf("you may not %s %s", p, where)
	if got.Status.Reason != "" {
		why += " (" + got.Status.Reason + ")"
	}
	return why
}
