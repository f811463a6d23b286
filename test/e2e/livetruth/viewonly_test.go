package livetruth

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// klogLine is a line as klog writes it ("E1124 12:00:00.000000 123
// reflector.go:227] ...") or a Go source position: what a library writing
// to the terminal leaves on the screen.
var klogLine = regexp.MustCompile(`(?m)^[IWEF]\d{4} \d\d:\d\d:\d\d|\.go:\d+\]|reflector|Failed to watch`)

// viewOnlyFlow: a user bound to the built-in view role in one namespace
// may read the deployment, its ReplicaSets and pods but not list nodes (nor
// namespaces). The 80×24 screen holds nothing but the console — no client-go
// log line, no "watch lost" banner — for longer than client-go takes to
// retry the refused lists; the Nodes pane says the user may not list nodes;
// and nothing is left on the terminal after quitting.
func viewOnlyFlow(t *testing.T, c *cluster) {
	const ns = "viewonly"
	c.deploy(t, ns, "e2e.example/web:v1")
	kubeconfig := c.viewKubeconfig(t, ns)

	s := c.console(t, 80, 24, kubeconfig, ns)
	screen := s.WaitFor("successfully rolled out")
	first := time.Now()
	// client-go retries a refused list with back-off starting at about a
	// second; ten seconds sees several retries, each of which used to
	// print a log line over the console.
	for time.Since(first) < 10*time.Second {
		screen = s.Screen()
		if klogLine.MatchString(screen) || strings.Contains(screen, "watch lost") || strings.Contains(screen, "forbidden") {
			t.Fatalf("the view-only user's screen shows more than the console:\n%s", screen)
		}
		if !strings.HasPrefix(strings.TrimSpace(screen), "rollscope") {
			t.Fatalf("the header is not on the first line:\n%s", screen)
		}
		time.Sleep(500 * time.Millisecond)
	}
	noCrash(t, screen)
	// At 80 columns one pane shows at a time: Tab to the Nodes pane.
	s.Keys("Tab")
	s.Keys("Tab")
	screen = s.WaitFor("you may not list nodes")
	t.Logf("the view-only user's Nodes pane:\n%s", screen)
	if strings.Contains(screen, "no nodes") || !strings.Contains(screen, "Nodes (not allowed)") {
		t.Errorf("the Nodes pane does not say the user may not list nodes:\n%s", screen)
	}

	s.Keys("q")
	screen = s.WaitFor("rollscope exited 0")
	if klogLine.MatchString(screen) || strings.Contains(screen, "forbidden") {
		t.Errorf("lines are left on the terminal after quitting:\n%s", screen)
	}
}

// viewKubeconfig makes a service account bound to the built-in view
// cluster role in namespace ns only, and writes a kubeconfig with its
// token.
func (c *cluster) viewKubeconfig(t *testing.T, ns string) string {
	t.Helper()
	ctx := t.Context()
	// The view role is filled in by the aggregation controller.
	c.Poll(t, "the built-in view role's rules", func(ctx context.Context) (bool, string, error) {
		r, err := c.Admin.RbacV1().ClusterRoles().Get(ctx, "view", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return len(r.Rules) > 0, "no rules yet", nil
	})
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "on-call", Namespace: ns}}
	if _, err := c.Admin.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating service account: %v", err)
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "on-call-view", Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "on-call", Namespace: ns}},
	}
	if _, err := c.Admin.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatalf("binding the view role: %v", err)
	}
	hour := int64(3600)
	tok, err := c.Admin.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "on-call",
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &hour}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("asking a token for the view-only user: %v", err)
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["e2e"] = &clientcmdapi.Cluster{Server: c.CP.URL, CertificateAuthorityData: c.CP.CAData}
	cfg.AuthInfos["on-call"] = &clientcmdapi.AuthInfo{Token: tok.Status.Token}
	cfg.Contexts["on-call"] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: "on-call", Namespace: ns}
	cfg.CurrentContext = "on-call"
	path := filepath.Join(t.TempDir(), "view-only.kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}
