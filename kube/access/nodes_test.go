package access

import (
	"context"
	"strings"
	"testing"

	"k8s.io/client-go/kubernetes/fake"
)

// A user who may read nodes but not change them or evict pods gets every
// node key disabled with the permission it lacks, asked cluster-wide.
func TestDeniedNodesNamesTheMissingPermissionsClusterWide(t *testing.T) {
	c := fake.NewSimpleClientset()
	var asked []string
	rbac(c, map[string]bool{"get nodes": true, "list nodes": true, "update nodes": true}, &asked)
	got := DeniedNodes(context.Background(), c, false)
	if len(got) != 2 || !strings.Contains(got["drain"], "create pods/eviction cluster-wide") || got["roll-group"] == "" {
		t.Fatalf("denied %v: want drain and roll-group, for want of create pods/eviction cluster-wide", got)
	}
	if got["cordon"] != "" || got["next-step"] != "" {
		t.Errorf("cordon and next-step need only nodes get/list/update, yet: %v", got)
	}
	for _, q := range asked {
		if !strings.HasPrefix(q, ":") {
			t.Errorf("asked %q in a namespace: node keys need cluster-wide permissions", q)
		}
	}

	// --delete-nodes makes a roll delete Node objects: asked only then.
	c = fake.NewSimpleClientset()
	rbac(c, map[string]bool{"get nodes": true, "list nodes": true, "update nodes": true, "create pods/eviction": true}, &asked)
	if got := DeniedNodes(context.Background(), c, true); len(got) != 1 || !strings.Contains(got["roll-group"], "delete nodes") {
		t.Errorf("with --delete-nodes: denied %v, want roll-group for want of delete nodes", got)
	}
}
