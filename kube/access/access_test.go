package access

import (
	"context"
	"errors"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

// rbac answers reviews from a set of allowed "verb resource/subresource".
func rbac(c *fake.Clientset, allowed map[string]bool, asked *[]string) {
	c.PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
		r := a.(clienttesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		ra := r.Spec.ResourceAttributes
		key := ra.Verb + " " + ra.Resource
		if ra.Subresource != "" {
			key += "/" + ra.Subresource
		}
		*asked = append(*asked, ra.Namespace+":"+key)
		out := r.DeepCopy()
		out.Status.Allowed = allowed[key]
		if !out.Status.Allowed {
			out.Status.Reason = "RBAC: no rule"
		}
		return true, out, nil
	})
}

func TestDeniedNamesEachActionTheUserMayNotTake(t *testing.T) {
	cases := []struct {
		name    string
		allowed []string
		denied  []string
	}{
		{"everything", []string{"get deployments", "patch deployments", "patch deployments/scale", "update deployments", "list replicasets"}, nil},
		{"read only", []string{"get deployments", "list replicasets"},
			[]string{"set-image", "set-env", "scale", "restart", "pause", "resume", "undo", "abort"}},
		{"no scale subresource", []string{"get deployments", "patch deployments", "update deployments", "list replicasets"}, []string{"scale"}},
		{"cannot list replica sets", []string{"get deployments", "patch deployments", "patch deployments/scale", "update deployments"}, []string{"undo", "abort"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			allowed := map[string]bool{}
			for _, a := range tc.allowed {
				allowed[a] = true
			}
			c := fake.NewSimpleClientset()
			var asked []string
			rbac(c, allowed, &asked)
			got := Denied(context.Background(), c, "shop")
			if len(got) != len(tc.denied) {
				t.Fatalf("denied %v, want exactly %v", got, tc.denied)
			}
			for _, a := range tc.denied {
				if !strings.Contains(got[a], "not allowed: you may not") || !strings.Contains(got[a], `in namespace "shop"`) {
					t.Errorf("%s: reason %q", a, got[a])
				}
			}
			// Each permission is asked once, in the namespace shown.
			seen := map[string]bool{}
			for _, q := range asked {
				if seen[q] || !strings.HasPrefix(q, "shop:") {
					t.Errorf("asked %q twice or in the wrong namespace: %v", q, asked)
				}
				seen[q] = true
			}
			if len(asked) != 5 {
				t.Errorf("asked %d reviews, want 5: %v", len(asked), asked)
			}
		})
	}
}

func TestAReviewThatFailsDeniesNothing(t *testing.T) {
	c := fake.NewSimpleClientset()
	c.PrependReactor("create", "selfsubjectaccessreviews", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("the server could not find the requested resource")
	})
	if got := Denied(context.Background(), c, "shop"); len(got) != 0 {
		t.Fatalf("denied %v when the reviews could not be made", got)
	}
}

func TestPermissionString(t *testing.T) {
	if s := patchScale.String(); s != "patch deployments.apps/scale" {
		t.Fatalf("%q", s)
	}
}
