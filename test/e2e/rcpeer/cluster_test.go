package rcpeer

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/e2etest"
	"rollscope/test/e2e/kubectlpeer"
	"rollscope/test/e2e/rollscopebin"
)

// patience bounds every wait on the cluster; it asserts nothing about speed.
const patience = 3 * time.Minute

const (
	oldImage = "e2e.example/foo:v1"
	newImage = "e2e.example/foo:v2"
)

// Pods are available well within the one-second update period after they
// are bound, so that both tools see the same availability at every
// decision and print the same steps.
var images = []kubelet.ImageRule{{Match: "*", Pull: 100 * time.Millisecond, Start: 100 * time.Millisecond,
	Ready: 200 * time.Millisecond, Stop: 100 * time.Millisecond}}

// cluster is the control plane every case shares, with two hollow nodes.
type cluster struct {
	*e2etest.Cluster
	kubectl string
	// home is kubectl's $HOME: its discovery cache stays out of the user's.
	home string
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	bin, err := kubectlpeer.Ensure(t.Context(), func(l string) { t.Log(l) })
	if err != nil {
		t.Fatal(err)
	}
	group := e2etest.HollowGroup(2, 300*time.Millisecond, e2etest.Capacity("110", "64", "64Gi"))
	c := e2etest.Start(t, e2etest.Setup{Patience: patience, Rollscope: true, Nodes: live.Nodes{Groups: []nodegroup.Group{group}, Images: images}})
	return &cluster{Cluster: c, kubectl: bin.Path, home: t.TempDir()}
}

// controller is the ReplicationController a case starts from: foo, with the
// user's annotations and labels, ready on oldImage.
type controller struct {
	replicas   int32
	containers []corev1.Container
}

// userAnnotations and userLabels are what the user wrote on foo; an update
// must keep them.
var (
	userAnnotations = map[string]string{"example.com/owner": "team-a", "example.com/runbook": "https://runbooks.example/foo"}
	userLabels      = map[string]string{"app": "foo", "tier": "front"}
)

func (c *cluster) foo(t *testing.T, ns string, spec controller) {
	t.Helper()
	c.createFoo(t, ns, spec)
	c.settled(t, ns, spec.replicas)
}

// createFoo creates foo in a new namespace ns without waiting for its pods.
func (c *cluster) createFoo(t *testing.T, ns string, spec controller) {
	t.Helper()
	c.Namespace(t, ns)
	if spec.containers == nil {
		spec.containers = []corev1.Container{{Name: "app", Image: oldImage}}
	}
	rc := &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: "foo", Namespace: ns, Annotations: userAnnotations, Labels: userLabels},
		Spec: corev1.ReplicationControllerSpec{
			Replicas: &spec.replicas, Selector: map[string]string{"app": "foo"},
			Template: &corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "foo"}},
				Spec:       corev1.PodSpec{Containers: spec.containers},
			},
		},
	}
	if _, err := c.Admin.CoreV1().ReplicationControllers(ns).Create(t.Context(), rc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// settled waits until ns has one controller, foo, at its size with every
// pod ready, its own, none terminating.
func (c *cluster) settled(t *testing.T, ns string, replicas int32) {
	t.Helper()
	e2etest.Poll(t, patience, "foo alone and ready in "+ns, func(ctx context.Context) (bool, string, error) {
		s, err := c.read(ctx, ns)
		if err != nil {
			return false, "", err
		}
		if len(s.rcs) != 1 || s.rcs[0].Name != "foo" {
			return false, s.String(), nil
		}
		rc := s.rcs[0]
		if *rc.Spec.Replicas != replicas || rc.Status.ReadyReplicas != replicas || rc.Status.ObservedGeneration < rc.Generation || int32(len(s.pods)) != replicas {
			return false, s.String(), nil
		}
		for _, p := range s.pods {
			if o := metav1.GetControllerOf(&p); o == nil || o.UID != rc.UID || p.DeletionTimestamp != nil {
				return false, s.String(), nil
			}
		}
		return true, s.String(), nil
	})
}

// command is one tool's `rolling-update foo` in ns, with the issue's
// periods.
func (c *cluster) command(t *testing.T, tool, ns string, args ...string) *exec.Cmd {
	t.Helper()
	argv := append([]string{"rolling-update", "foo", "--kubeconfig", c.CP.AdminKubeconfig, "--namespace", ns,
		"--update-period", "1s", "--poll-interval", "200ms"}, args...)
	if tool == kubectl {
		cmd := exec.Command(c.kubectl, argv...)
		cmd.Env = append(os.Environ(), "HOME="+c.home)
		return cmd
	}
	return exec.Command(rollscopebin.Path(t), argv...)
}

// The two tools.
const (
	kubectl   = "kubectl"
	rollscope = "rollscope"
)
