// Package access asks the API server which rollout actions the current user
// may take, with SelfSubjectAccessReviews, so that the console can show the
// keys it may not use as disabled, with the reason, instead of failing
// after the operator has typed an image.
package access

import (
	"context"
	"fmt"
	"strings"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Permission is one verb on one resource in the namespace.
type Permission struct {
	Verb, Group, Resource, Subresource string
}

// String writes the permission as `kubectl auth can-i` takes it:
// "patch deployments.apps/scale" (resource.group/subresource).
func (p Permission) String() string {
	r := p.Resource
	if p.Group != "" {
		r += "." + p.Group
	}
	if p.Subresource != "" {
		r += "/" + p.Subresource
	}
	return p.Verb + " " + r
}

var (
	getDeployments   = Permission{Verb: "get", Group: "apps", Resource: "deployments"}
	patchDeployments = Permission{Verb: "patch", Group: "apps", Resource: "deployments"}
	patchScale       = Permission{Verb: "patch", Group: "apps", Resource: "deployments", Subresource: "scale"}
	updateDeployment = Permission{Verb: "update", Group: "apps", Resource: "deployments"}
	listReplicaSets  = Permission{Verb: "list", Group: "apps", Resource: "replicasets"}
)

// Needs is what each action sends, by the console's action name: the reads
// the engine makes before writing and the write itself.
var Needs = map[string][]Permission{
	"set-image": {getDeployments, patchDeployments},
	"set-env":   {getDeployments, patchDeployments},
	"scale":     {patchScale},
	"restart":   {getDeployments, patchDeployments},
	"pause":     {getDeployments, patchDeployments},
	"resume":    {getDeployments, patchDeployments},
	"undo":      {getDeployments, listReplicaSets, patchDeployments},
	"abort":     {getDeployments, listReplicaSets, updateDeployment},
}

// Denied asks about every permission the actions need, once each, and
// returns the actions the user may not take with the reason, by action
// name. A review that cannot be made (the API refuses the review itself)
// denies nothing: the action will then say why when it is tried.
func Denied(ctx context.Context, c kubernetes.Interface, namespace string) map[string]string {
	answers := map[Permission]string{} // "" when allowed
	out := map[string]string{}
	for action, perms := range Needs {
		var missing []string
		for _, p := range perms {
			why, asked := answers[p]
			if !asked {
				why = review(ctx, c, namespace, p)
				answers[p] = why
			}
			if why != "" {
				missing = append(missing, why)
			}
		}
		if len(missing) > 0 {
			out[action] = "not allowed: " + strings.Join(missing, "; ")
		}
	}
	return out
}

// review says why p is denied in namespace, "" when it is allowed or the
// answer is unknown.
func review(ctx context.Context, c kubernetes.Interface, namespace string, p Permission) string {
	r := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Namespace: namespace, Verb: p.Verb, Group: p.Group, Resource: p.Resource, Subresource: p.Subresource,
		},
	}}
	got, err := c.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, r, metav1.CreateOptions{})
	if err != nil || got.Status.Allowed {
		return ""
	}
	why := fmt.Sprintf("you may not %s in namespace %q", p, namespace)
	if got.Status.Reason != "" {
		why += " (" + got.Status.Reason + ")"
	}
	return why
}
