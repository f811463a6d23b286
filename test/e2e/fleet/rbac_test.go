package fleet

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// TestPlainAllNamespacesForAOneNamespaceUser: a user whose Role lets them
// read namespace team-a only asks for every namespace. --plain -A prints
// team-a's fleet, each state as the API reports it, and nothing of the other
// namespaces, and says on stderr, in one line naming team-a, that -A fell
// back to it.
func TestPlainAllNamespacesForAOneNamespaceUser(t *testing.T) {
	c := fleetCluster(t)
	kubeconfig := c.teamAKubeconfig(t)
	c.onlyTeamA(t, kubeconfig)
	p := c.plain(t, kubeconfig, "-A")
	c.agrees(t, "rollscope --plain -A as team-a's user", fleetIn(teamA), func() map[string]shown { return p.rows(t) })
	line := p.waitErr(t, "a line saying -A fell back to team-a", fellBack)
	t.Logf("stderr: %s", line)
}

// onlyTeamA checks the user's rights on the API itself: deployments of
// team-a, yes; of every namespace, or of team-b, no.
func (c *testbed) onlyTeamA(t *testing.T, kubeconfig string) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	user, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := user.AppsV1().Deployments(teamA).List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatalf("team-a's user may not list team-a's deployments: %v", err)
	}
	for _, ns := range []string{metav1.NamespaceAll, teamB} {
		if _, err := user.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
			t.Fatalf("listing deployments in %q as team-a's user: %v, want forbidden", ns, err)
		}
	}
}

// fellBack reports whether line says that every namespace could not be
// read and that team-a is shown instead.
func fellBack(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, teamA) && (strings.Contains(line, "-A") || strings.Contains(l, "all namespaces") || strings.Contains(l, "every namespace"))
}

var teamAUser struct {
	once sync.Once
	path string
}

// teamAKubeconfig makes (once) a service account in team-a bound to a Role
// of team-a that may get, list and watch what the console reads there —
// and nothing in any other namespace, nor nodes — and writes a kubeconfig
// with its token whose context's namespace is team-a, as a namespace's
// on-call engineer gets it.
func (c *testbed) teamAKubeconfig(t *testing.T) string {
	t.Helper()
	teamAUser.once.Do(func() {
		ctx := context.Background()
		const name = "on-call"
		read := []string{"get", "list", "watch"}
		role := &rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: "fleet-reader", Namespace: teamA},
			Rules: []rbacv1.PolicyRule{
				{APIGroups: []string{""}, Resources: []string{"pods", "events", "replicationcontrollers"}, Verbs: read},
				{APIGroups: []string{"apps"}, Resources: []string{"deployments", "replicasets", "statefulsets", "daemonsets", "controllerrevisions"}, Verbs: read},
				{APIGroups: []string{"policy"}, Resources: []string{"poddisruptionbudgets"}, Verbs: read},
			},
		}
		if _, err := c.admin.RbacV1().Roles(teamA).Create(ctx, role, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating the role: %v", err)
		}
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: teamA}}
		if _, err := c.admin.CoreV1().ServiceAccounts(teamA).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating the service account: %v", err)
		}
		binding := &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "on-call-fleet-reader", Namespace: teamA},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: teamA}},
		}
		if _, err := c.admin.RbacV1().RoleBindings(teamA).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
			t.Fatalf("binding the role: %v", err)
		}
		hour := int64(3600)
		tok, err := c.admin.CoreV1().ServiceAccounts(teamA).CreateToken(ctx, name,
			&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &hour}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("asking a token for team-a's user: %v", err)
		}
		cfg := clientcmdapi.NewConfig()
		cfg.Clusters["e2e"] = &clientcmdapi.Cluster{Server: c.cp.URL, CertificateAuthorityData: c.cp.CAData}
		cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: tok.Status.Token}
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: name, Namespace: teamA}
		cfg.CurrentContext = name
		// Beside the control plane's own kubeconfigs: the tests' temporary
		// directories go with the test that made it.
		path := filepath.Join(c.cp.Dir, "team-a.kubeconfig")
		if err := clientcmd.WriteToFile(*cfg, path); err != nil {
			t.Fatal(err)
		}
		teamAUser.path = path
	})
	if teamAUser.path == "" {
		t.Fatal("team-a's kubeconfig was not made; see the test that made it")
	}
	return teamAUser.path
}
