package access

import (
	"context"
	"slices"
	"testing"

	"k8s.io/client-go/kubernetes/fake"
)

// -A asks, cluster-wide, for what the fleet of every namespace reads, and
// names the first thing refused.
func TestAllNamespacesNamesWhatIsRefused(t *testing.T) {
	cases := []struct {
		allowed []string
		want    string
	}{
		{[]string{"list deployments", "watch deployments", "list pods", "watch pods"}, ""},
		{[]string{"list pods", "watch pods"}, "you may not list deployments in all namespaces"},
		{[]string{"list deployments", "watch deployments", "list pods"}, "you may not watch pods in all namespaces"},
	}
	for _, c := range cases {
		client := fake.NewClientset()
		var asked []string
		rbac(client, c.allowed, &asked)
		if got := AllNamespaces(context.Background(), client); got != c.want {
			t.Errorf("allowed %v: got %q, want %q", c.allowed, got, c.want)
		}
		if slices.ContainsFunc(asked, func(a string) bool { return a[0] != ':' }) {
			t.Errorf("asked %v: every question must be about all namespaces (no namespace)", asked)
		}
	}
}
