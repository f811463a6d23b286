package access

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/model/action"
)

// rbac answers reviews from a set of allowed "verb resource/subresource".
func rbac(c *fake.Clientset, allowed []string, asked *[]string) {
	c.PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
		r := a.(clienttesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		ra := r.Spec.ResourceAttributes
		key := ra.Verb + " " + ra.Resource
		if ra.Subresource != "" {
			key += "/" + ra.Subresource
		}
		*asked = append(*asked, ra.Namespace+":"+key)
		out := r.DeepCopy()
		out.Status.Allowed = slices.Contains(allowed, key)
		if !out.Status.Allowed {
			out.Status.Reason = "RBAC: no rule"
		}
		return true, out, nil
	})
}

// everything is every permission rollscope's actions need.
var everything = []string{
	"get deployments", "patch deployments", "patch deployments/scale", "update deployments", "list replicasets",
	"get nodes", "list nodes", "update nodes", "create pods/eviction",
	"get replicationcontrollers", "update replicationcontrollers", "create replicationcontrollers", "delete replicationcontrollers",
	"list pods", "update pods", "get pods/log", "list events",
	"get statefulsets", "patch statefulsets", "get daemonsets", "patch daemonsets", "list controllerrevisions",
	"get rollouts", "patch rollouts",
}

func without(perms ...string) []string {
	return slices.DeleteFunc(slices.Clone(everything), func(p string) bool { return slices.Contains(perms, p) })
}

func writes() []action.Name {
	var out []action.Name
	for _, s := range action.Specs() {
		if s.Writes {
			out = append(out, s.Name)
		}
	}
	return out
}

func TestDeniedNamesEachActionTheUserMayNotTake(t *testing.T) {
	cases := []struct {
		name    string
		allowed []string
		denied  []action.Name
	}{
		{"everything", everything, nil},
		{"read only", []string{"get deployments", "list replicasets", "get nodes", "list nodes", "get replicationcontrollers", "list pods", "get pods/log", "list events",
			"get statefulsets", "get daemonsets", "list controllerrevisions"}, writes()},
		// A viewer who may not read logs finds l off, with the reason.
		{"no pod logs", without("get pods/log"), []action.Name{action.Logs}},
		{"no scale subresource", without("patch deployments/scale"), []action.Name{action.Scale}},
		{"cannot list replica sets", without("list replicasets"), []action.Name{action.Undo, action.Abort, action.Canary, action.Promote, action.PromoteAll}},
		{"cannot evict", without("create pods/eviction"), []action.Name{action.Drain, action.RollGroup}},
		// The rolling-update controller relabels pods as the same user.
		{"cannot relabel pods", without("update pods"), []action.Name{action.RCUpdate, action.RCAbort}},
		{"cannot create controllers", without("create replicationcontrollers"), []action.Name{action.RCUpdate}},
		// Each kind's own permissions: a StatefulSet's actions need
		// statefulsets, an undo also its ControllerRevisions.
		{"cannot patch statefulsets", without("patch statefulsets"), action.Of(action.OnStatefulSet)},
		{"cannot list revisions", without("list controllerrevisions"), []action.Name{"sts-undo", "ds-undo", "ro-undo"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewClientset()
			var asked []string
			rbac(c, tc.allowed, &asked)
			got := Denied(context.Background(), c, "shop", false)
			if len(got) != len(tc.denied) {
				t.Fatalf("denied %v, want exactly %v", got, tc.denied)
			}
			for _, a := range tc.denied {
				s, _ := action.Lookup(a)
				where := `in namespace "shop"`
				if s.On == action.OnNode || s.On == action.OnNodeGroup {
					where = "cluster-wide"
				}
				if !strings.HasPrefix(got[a], "not allowed: you may not ") || !strings.Contains(got[a], where) {
					t.Errorf("%s: reason %q, want it to say %s", a, got[a], where)
				}
			}
			// Each permission is asked once: the node ones cluster-wide,
			// the others in the namespace shown.
			seen := map[string]bool{}
			for _, q := range asked {
				ns, perm, _ := strings.Cut(q, ":")
				clusterWide := strings.HasSuffix(perm, " nodes") || perm == "create pods/eviction"
				if seen[q] || (ns == "") != clusterWide || (ns != "" && ns != "shop") {
					t.Errorf("asked %q twice or in the wrong place: %v", q, asked)
				}
				seen[q] = true
			}
			if len(asked) != len(everything) {
				t.Errorf("asked %d reviews, want %d: %v", len(asked), len(everything), asked)
			}
		})
	}
}

// --delete-nodes makes a roll delete Node objects: asked only then.
func TestDeleteNodesIsAskedOnlyWhenRollsDeleteNodes(t *testing.T) {
	var asked []string
	c := fake.NewClientset()
	rbac(c, everything, &asked)
	if got := Denied(context.Background(), c, "shop", false); len(got) != 0 || slices.Contains(asked, ":delete nodes") {
		t.Errorf("without --delete-nodes: denied %v, asked %v; want delete nodes never asked", got, asked)
	}
	c = fake.NewClientset()
	rbac(c, everything, &asked)
	got := Denied(context.Background(), c, "shop", true)
	if len(got) != 1 || !strings.Contains(got[action.RollGroup], "you may not delete nodes cluster-wide (RBAC: no rule)") {
		t.Errorf("with --delete-nodes: denied %v, want roll-group for want of delete nodes", got)
	}
}

func TestAReviewThatFailsDeniesNothing(t *testing.T) {
	c := fake.NewClientset()
	c.PrependReactor("create", "selfsubjectaccessreviews", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("the server could not find the requested resource")
	})
	if got := Denied(context.Background(), c, "shop", true); len(got) != 0 {
		t.Fatalf("denied %v when the reviews could not be made", got)
	}
}
