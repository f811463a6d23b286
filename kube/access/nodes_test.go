package access

import (
	"context"
	"strings"
	"testing"

	"k8s.io/client-go/kubernetes/fake"
)

// The console wiring still asks for the node keys alone, by key name.
func TestDeniedNodesAsksOnlyTheNodeKeys(t *testing.T) {
	c := fake.NewClientset()
	var asked []string
	rbac(c, []string{"get nodes", "list nodes", "update nodes"}, &asked)
	got := DeniedNodes(context.Background(), c, false)
	if len(got) != 2 || !strings.Contains(got["drain"], "create pods/eviction cluster-wide") || got["roll-group"] == "" {
		t.Fatalf("denied %v: want drain and roll-group, for want of create pods/eviction cluster-wide", got)
	}
	for _, q := range asked {
		if !strings.HasPrefix(q, ":") {
			t.Errorf("asked %q in a namespace: node keys need cluster-wide permissions", q)
		}
	}
}
