package why

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait; the tests assert nothing about speed.
const patience = 2 * time.Minute

// What the hollow containers write when they start.
var webLog = []string{"starting web", "listening on :8080"}

var images = []kubelet.ImageRule{
	{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 500 * time.Millisecond, Logs: webLog},
}

type cluster struct{ *e2etest.Cluster }

// TestWhyOnALiveCluster runs the flows side by side on one control plane
// with two hollow nodes of one CPU each, whose kubelet serves logs.
func TestWhyOnALiveCluster(t *testing.T) {
	group := e2etest.HollowGroup(2, 500*time.Millisecond, e2etest.Capacity("110", "1", "8Gi"))
	nodes := live.Nodes{Groups: []nodegroup.Group{group}, Images: images}
	c := &cluster{e2etest.Start(t, e2etest.Setup{Patience: patience, Rollscope: true, Nodes: nodes, ServeLogs: true})}
	for name, flow := range map[string]func(*testing.T, *cluster){
		"logs":          logsFlow,
		"unschedulable": unschedulableFlow,
		"no-pod-logs":   noPodLogsFlow,
	} {
		t.Run(name, func(t *testing.T) { t.Parallel(); flow(t, c) })
	}
}

// logsFlow: a hollow pod's log through the real API server's pods/log,
// with client-go as kubectl logs uses it, then in the console's logs view.
func logsFlow(t *testing.T, c *cluster) {
	c.deploy(t, "logs", 1, "100m")
	pod := c.runningPod(t, "logs")

	got := c.podLog(t, "logs", pod, &corev1.PodLogOptions{})
	if want := strings.Join(webLog, "\n") + "\n"; got != want {
		t.Errorf("pods/log of %s = %q, want the hollow container's lines %q", pod, got, want)
	}
	if got := c.podLog(t, "logs", pod, &corev1.PodLogOptions{TailLines: ptr(int64(1))}); got != webLog[1]+"\n" {
		t.Errorf("pods/log --tail=1 of %s = %q", pod, got)
	}
	// As kubectl logs --previous reads it: the kubelet's refusal, passed on
	// by the API server.
	_, err := c.Admin.CoreV1().Pods("logs").GetLogs(pod, &corev1.PodLogOptions{Previous: true}).Stream(t.Context())
	if err == nil || !strings.Contains(err.Error(), `previous terminated container "web" in pod "`+pod+`" not found`) {
		t.Errorf("pods/log --previous of a pod that never restarted: %v, want the kubelet's not found", err)
	}

	s := c.console(t, c.CP.AdminKubeconfig, "logs")
	s.WaitFor("successfully rolled out")
	s.Keys("l")
	screen := s.WaitFor(webLog[1])
	if !strings.Contains(screen, "logs logs/"+pod) || !strings.Contains(screen, "following") {
		t.Errorf("the logs view does not show %s's log being followed:\n%s", pod, screen)
	}
	s.Keys("Escape")
	s.WaitFor("ReplicaSets")
}

// unschedulableFlow: three pods of 700m on two nodes of one CPU; the third
// fits nowhere and the line says so in the real scheduler's words.
func unschedulableFlow(t *testing.T, c *cluster) {
	c.deploy(t, "sched", 3, "700m")
	s := c.console(t, c.CP.AdminKubeconfig, "sched")
	s.WaitFor("why new pods cannot be scheduled — 0/2 nodes are available: 2 Insufficient cpu")
}

// noPodLogsFlow: a user who may read everything the console watches but not
// pods/log finds l disabled, with the API server's reason, in the help and
// when pressed.
func noPodLogsFlow(t *testing.T, c *cluster) {
	const user = "e2e-no-pod-logs"
	ctx := t.Context()
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"pods", "nodes", "events", "replicationcontrollers", "namespaces"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"apps"}, Resources: []string{"deployments", "replicasets"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"policy"}, Resources: []string{"poddisruptionbudgets"}, Verbs: []string{"get", "list", "watch"}},
		},
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: user},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}},
	}
	if _, err := c.Admin.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Admin.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	c.deploy(t, "nologs", 1, "100m")
	s := c.console(t, c.CP.AdminKubeconfig, "nologs", "--as", user)
	s.WaitFor("successfully rolled out")
	s.Keys("?")
	help := s.WaitFor("esc or ? to close")
	if !strings.Contains(help, "pod logs (on a ReplicaSet: its n") || !strings.Contains(help, "not allowed") {
		t.Errorf("help does not show l disabled:\n%s", help)
	}
	s.Keys("Escape")
	s.WaitFor("ReplicaSets")
	s.Keys("l")
	screen := s.WaitFor(`not allowed: you may not get pods/log in namespace "nologs"`)
	if strings.Contains(screen, "logs nologs/") {
		t.Errorf("the logs view opened for a user without pods/log:\n%s", screen)
	}
}

// deploy creates namespace ns with deployment web of replicas pods, each
// asking for cpu.
func (c *cluster) deploy(t *testing.T, ns string, replicas int32, cpu string) {
	t.Helper()
	c.Namespace(t, ns)
	d := e2etest.OneAtATime(e2etest.Deployment(ns, "web", replicas, "e2e.example/web:v1"))
	app := &d.Spec.Template.Spec.Containers[0]
	app.Name = "web"
	app.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment %s/web: %v", ns, err)
	}
}

// runningPod waits for a running pod of web in ns and names it.
func (c *cluster) runningPod(t *testing.T, ns string) string {
	t.Helper()
	var name string
	e2etest.Poll(t, patience, "a running pod of "+ns+"/web", func(ctx context.Context) (bool, string, error) {
		pods, err := c.Admin.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil {
			return false, "", err
		}
		for _, p := range pods.Items {
			for _, cs := range p.Status.ContainerStatuses {
				if cs.State.Running != nil {
					name = p.Name
					return true, "", nil
				}
			}
		}
		return false, fmt.Sprintf("%d pods, none running", len(pods.Items)), nil
	})
	return name
}

// podLog reads a pod's log through pods/log, as kubectl logs does.
func (c *cluster) podLog(t *testing.T, ns, pod string, opts *corev1.PodLogOptions) string {
	t.Helper()
	rc, err := c.Admin.CoreV1().Pods(ns).GetLogs(pod, opts).Stream(t.Context())
	if err != nil {
		t.Fatalf("pods/log of %s/%s: %v", ns, pod, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("reading the log of %s/%s: %v", ns, pod, err)
	}
	return string(b)
}

// console starts rollscope in tmux on deployment web of ns.
func (c *cluster) console(t *testing.T, kubeconfig, ns string, flags ...string) *tmuxtest.Session {
	t.Helper()
	argv := append([]string{c.Bin, "--kubeconfig", kubeconfig, "-n", ns}, flags...)
	s := tmuxtest.Start(t, 160, 45, append(argv, "web")...)
	s.Timeout = patience
	return s
}

func ptr[T any](v T) *T { return &v }
