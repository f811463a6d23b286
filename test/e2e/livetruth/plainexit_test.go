package livetruth

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/test/e2e/e2etest"
)

// plainExitFlow: rollscope --plain on a live cluster ends as kubectl
// rollout status does — exit 0 once the rollout it follows has rolled out,
// exit 1 with kubectl's words on stderr once it has exceeded its progress
// deadline, exit 1 and one line for a deployment that is not there — so a
// script can trust it.
func plainExitFlow(t *testing.T, c *cluster) {
	const ns = "plain-exit"
	c.deploy(t, ns, "e2e.example/web:v1")
	c.stuck(t, ns, "stuck")
	c.setImage(t, ns, "e2e.example/web:v2")

	t.Run("rolled-out", func(t *testing.T) {
		r := c.plainToEnd(t, ns, "deploy/web")
		last := lastStatusLine(r.stdout, "web")
		if r.code != 0 || !strings.Contains(last, `deployment "web" successfully rolled out`) {
			t.Errorf("exit %d, last status line %q; want exit 0 after it rolled out\nstdout:\n%s\nstderr:\n%s", r.code, last, r.stdout, r.stderr)
		}
	})
	t.Run("progress-deadline", func(t *testing.T) {
		r := c.plainToEnd(t, ns, "deploy/stuck")
		want := `rollscope: deployment "stuck" exceeded its progress deadline`
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("exit %d; want exit 1 with %q on stderr\nstdout:\n%s\nstderr:\n%s", r.code, want, r.stdout, r.stderr)
		}
		if last := lastStatusLine(r.stdout, "stuck"); !strings.Contains(last, "exceeded its progress deadline") {
			t.Errorf("the last status line %q does not say the deadline was exceeded", last)
		}
	})
	t.Run("not-there", func(t *testing.T) {
		r := c.plainToEnd(t, ns, "deploy/nosuch")
		want := `rollscope: deployments.apps "nosuch" not found in namespace "plain-exit"`
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != 1 || lines[len(lines)-1] != want {
			t.Errorf("exit %d, stderr %q; want exit 1 ending with the one line %q", r.code, r.stderr, want)
		}
		if strings.Contains(r.stdout, "deployment/web") || strings.Contains(r.stdout, "deployment/stuck") {
			t.Errorf("a missing deployment streamed another one:\n%s", r.stdout)
		}
	})
}

// ended is a finished rollscope --plain run.
type ended struct {
	code           int
	stdout, stderr string
}

// plainToEnd runs rollscope --plain on target in ns until it ends by
// itself: no --until, no signal.
func (c *cluster) plainToEnd(t *testing.T, ns, target string) ended {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Bin, "--plain", "--kubeconfig", c.CP.AdminKubeconfig, "-n", ns, target)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("rollscope --plain %s did not end by itself within %v; it wrote:\n%s\n%s", target, patience, out.String(), errOut.String())
	}
	code, err := e2etest.ExitCode(err)
	if err != nil {
		t.Fatalf("running rollscope --plain: %v", err)
	}
	t.Logf("rollscope --plain %s exited %d; stdout:\n%s\nstderr:\n%s", target, code, out.String(), errOut.String())
	return ended{code: code, stdout: out.String(), stderr: errOut.String()}
}

// lastStatusLine is the last status line of deployment name in stdout: a
// blocker line ("… why …") may follow it.
func lastStatusLine(stdout, name string) string {
	last := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, "] deployment/"+name+" ") && !strings.Contains(l, "] deployment/"+name+" why ") {
			last = l
		}
	}
	return last
}

// stuck creates deployment name in ns whose image the hollow kubelets
// never pull: its first rollout exceeds its progress deadline of five
// seconds.
func (c *cluster) stuck(t *testing.T, ns, name string) {
	t.Helper()
	replicas, deadline := int32(1), int32(5)
	labels := map[string]string{"app": name}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas:                &replicas,
			ProgressDeadlineSeconds: &deadline,
			Selector:                &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "e2e.example/nopull:v1"}}},
			},
		},
	}
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment %s/%s: %v", ns, name, err)
	}
}
