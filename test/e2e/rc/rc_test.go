package rc

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/test/e2e/rollscopebin"
)

// rollingUpdate runs `rollscope rolling-update web` in ns with args, with a
// short update period, and returns its output once it exits.
func (c *cluster) rollingUpdate(t *testing.T, ns string, args ...string) (string, error) {
	t.Helper()
	cmd := c.command(t, ns, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func (c *cluster) command(t *testing.T, ns string, args ...string) *exec.Cmd {
	t.Helper()
	argv := append([]string{"rolling-update", "web", "--kubeconfig", c.CP.AdminKubeconfig, "--namespace", ns,
		"--update-period", "1s", "--poll-interval", "200ms", "--timeout", "1m"}, args...)
	return exec.Command(rollscopebin.Path(t), argv...)
}

// sizes reads spec.replicas of every controller in ns, by name.
func (c *cluster) sizes(ctx context.Context, ns string) (map[string]int32, error) {
	rcs, err := c.Admin.CoreV1().ReplicationControllers(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]int32{}
	for _, rc := range rcs.Items {
		out[rc.Name] = *rc.Spec.Replicas
	}
	return out, nil
}

// killWhen starts the update and SIGKILLs it once the controllers' sizes
// satisfy at, as a crash or a closed laptop would stop it.
func (c *cluster) killWhen(t *testing.T, ns, what string, at func(web, next int32) bool, args ...string) {
	t.Helper()
	cmd := c.command(t, ns, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	poll(t, what, func(ctx context.Context) (bool, string, error) {
		select {
		case err := <-exited:
			exited <- err
			return false, "", fmt.Errorf("rolling-update exited (%v) before %s:\n%s", err, what, out.String())
		default:
		}
		s, err := c.sizes(ctx, ns)
		if err != nil {
			return false, "", err
		}
		var next int32
		for name, n := range s {
			if strings.HasPrefix(name, "web-") {
				next = n
			}
		}
		return len(s) == 2 && at(s["web"], next), fmt.Sprint(s), nil
	})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	t.Logf("killed mid-way:\n%s", out.String())
}

// TestRollingUpdateOnARealControlPlane runs every flow side by side on one
// control plane, each in its own namespace.
func TestRollingUpdateOnARealControlPlane(t *testing.T) {
	c := startCluster(t)
	for name, flow := range map[string]func(*testing.T, *cluster){
		"full update with the rename":    fullFlow,
		"killed mid-way, then run again": crashFlow,
		"abort from mid-rollout":         abortFlow,
		"console":                        consoleFlow,
		"abort refused while renaming":   renameFlow,
	} {
		t.Run(name, func(t *testing.T) { t.Parallel(); flow(t, c) })
	}
}

// fullFlow updates web to the new image, NEXT derived and renamed back.
func fullFlow(t *testing.T, c *cluster) {
	c.web(t, "rc-full")
	pods := watchPods(t, c.Admin, "rc-full")
	out, err := c.rollingUpdate(t, "rc-full", "--image", newImage)
	if err != nil {
		t.Fatalf("rolling-update: %v\n%s", err, out)
	}
	for _, want := range []string{"Created web-", "Scaling up web-", "(keep 3 pods available, don't exceed 4 pods)",
		"Update succeeded. Deleting old controller: web", "Renaming web-", "replicationcontroller/web rolling updated"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	c.settled(t, "rc-full", newImage)
	if n := pods.max(); n > replicas+maxSurge {
		t.Errorf("%d pods ran at once, more than replicas + maxSurge = %d", n, replicas+maxSurge)
	}
}

// crashFlow kills the update half-way; the same command then finishes it.
func crashFlow(t *testing.T, c *cluster) {
	c.web(t, "rc-crash")
	pods := watchPods(t, c.Admin, "rc-crash")
	c.killWhen(t, "rc-crash", "the update half-way", func(web, next int32) bool { return next >= 2 && web < replicas }, "--image", newImage)
	out, err := c.rollingUpdate(t, "rc-crash", "--image", newImage)
	if err != nil {
		t.Fatalf("rolling-update run again: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Continuing update with existing controller web-") {
		t.Errorf("the second run did not continue the update:\n%s", out)
	}
	c.settled(t, "rc-crash", newImage)
	if n := pods.max(); n > replicas+maxSurge {
		t.Errorf("%d pods ran at once, more than replicas + maxSurge = %d", n, replicas+maxSurge)
	}
}

// abortFlow aborts an update killed after its first scale-down.
func abortFlow(t *testing.T, c *cluster) {
	c.web(t, "rc-abort")
	pods := watchPods(t, c.Admin, "rc-abort")
	// The update is killed after its first scale-down, waiting out
	// the update period before the next scale-up.
	c.killWhen(t, "rc-abort", "the first old pod gone", func(web, next int32) bool { return web == replicas-1 && next >= 1 },
		"--image", newImage, "--update-period", "5s")
	out, err := c.rollingUpdate(t, "rc-abort", "--rollback")
	if err != nil {
		t.Fatalf("rolling-update --rollback: %v\n%s", err, out)
	}
	if !strings.Contains(out, `Setting "web" replicas to 3`) {
		t.Errorf("the rollback did not restore the original size:\n%s", out)
	}
	c.settled(t, "rc-abort", oldImage)
	if n := pods.max(); n > replicas+maxSurge {
		t.Errorf("%d pods ran at once, more than replicas + maxSurge = %d", n, replicas+maxSurge)
	}
}
