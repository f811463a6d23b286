package access

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// AllNamespaces asks whether the user may list and watch what the fleet of
// every namespace reads (-A): deployments and pods in all namespaces. It
// returns "" when they may (or when the API refuses the review itself, so
// the watch will say why), else the first resource refused, in the
// operator's words: "you may not list deployments in all namespaces".
func AllNamespaces(ctx context.Context, c kubernetes.Interface) string {
	for _, ask := range []struct{ verb, group, resource string }{
		{"list", "apps", "deployments"}, {"watch", "apps", "deployments"},
		{"list", "", "pods"}, {"watch", "", "pods"},
	} {
		r := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: ask.verb, Group: ask.group, Resource: ask.resource},
		}}
		got, err := c.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, r, metav1.CreateOptions{})
		if err != nil || got.Status.Allowed {
			continue
		}
		return fmt.Sprintf("you may not %s %s in all namespaces", ask.verb, ask.resource)
	}
	return ""
}
