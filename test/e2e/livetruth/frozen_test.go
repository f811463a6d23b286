package livetruth

import (
	"bytes"
	"context"
	"os/exec"
	"rollscope/test/e2e/e2etest"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// bannerWithin is the promise to the operator: the banner is up this soon
// after the API server stops answering, whatever the watches think.
const bannerWithin = 5 * time.Second

// frozenFlow freezes the API server with SIGSTOP: its connections stay open
// and nothing answers, so no watch fails. The console puts up its banner
// within bannerWithin and calls the rollout status the last known one,
// --plain says so on stderr, a scale sent meanwhile fails with its whole
// reason in the footer, and once the API server is thawed the banner goes
// and --plain says the API server answers again.
func frozenFlow(t *testing.T, c *cluster) {
	const ns = "frozen"
	c.deploy(t, ns, "e2e.example/web:v1")
	s := c.console(t, 160, 45, c.CP.AdminKubeconfig, ns)
	s.WaitFor("successfully rolled out")
	// --plain ends, as kubectl rollout status does, once what it follows has
	// rolled out: it follows a rollout that cannot finish (its pods fit on
	// no node), so it is still watching when the API server freezes.
	c.unschedulable(t, ns, "stuck")
	plain := c.plain(t, ns, "stuck")
	plain.waitOut(t, `Waiting for deployment "stuck" rollout to finish`)

	if err := c.CP.FreezeAPIServer(); err != nil {
		t.Fatal(err)
	}
	frozen := true
	thaw := func() {
		if frozen {
			if err := c.CP.ThawAPIServer(); err != nil {
				t.Error(err)
			}
			frozen = false
		}
	}
	t.Cleanup(thaw)
	stopped := time.Now()

	s.Timeout = bannerWithin
	screen := s.WaitFor("API server not answering")
	t.Logf("banner %s after SIGSTOP: %s", time.Since(stopped).Round(100*time.Millisecond), strings.SplitN(screen, "\n", 2)[0])
	noCrash(t, screen)
	s.Timeout = patience
	// The rollout's sentence is said to be the last known one.
	s.WaitFor(`last known: deployment "web" successfully rolled out`)
	plain.waitErr(t, "the API server is not answering")

	// A scale sent meanwhile: the footer says what happened and what it
	// means, not client-go's address.
	s.Keys("s")
	s.WaitFor("replicas (now 2)")
	s.Keys("-l", "3")
	s.Keys("Enter")
	s.WaitFor("y send")
	s.Keys("y")
	screen = s.WaitFor("the API server did not answer in time — whether the change was made is not known")
	noCrash(t, screen)
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "did not answer in time") {
			t.Logf("the scale sent while frozen: %s", strings.TrimSpace(line))
		}
	}
	if strings.Contains(screen, "https://") {
		t.Errorf("the failure shows client-go's request instead of its reason:\n%s", screen)
	}

	thaw()
	thawed := time.Now()
	s.WaitUntil("the banner gone", func(screen string) bool {
		return !strings.Contains(screen, "API server not answering") && !strings.Contains(screen, "watch lost")
	})
	t.Logf("banner gone %s after SIGCONT", time.Since(thawed).Round(100*time.Millisecond))
	plain.waitErr(t, "the API server answers again")
	d, err := c.Admin.AppsV1().Deployments(ns).Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Whether the frozen server took the scale once thawed is exactly
	// what the console said it could not know.
	t.Logf("after the thaw the deployment has %d replicas", *d.Spec.Replicas)
}

// plainRun is rollscope --plain running beside the test.
type plainRun struct {
	mu       sync.Mutex
	out, err bytes.Buffer
}

// plain starts rollscope --plain on deployment name until the test ends.
func (c *cluster) plain(t *testing.T, ns, name string) *plainRun {
	t.Helper()
	r := &plainRun{}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, c.Bin, "--plain", "--kubeconfig", c.CP.AdminKubeconfig, "-n", ns, name)
	cmd.Stdout = e2etest.LockedWriter{Mu: &r.mu, Buf: &r.out}
	cmd.Stderr = e2etest.LockedWriter{Mu: &r.mu, Buf: &r.err}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting rollscope --plain: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		t.Logf("rollscope --plain wrote on stdout:\n%s\nand on stderr:\n%s", r.read(&r.out), r.read(&r.err))
	})
	return r
}

func (r *plainRun) read(b *bytes.Buffer) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return b.String()
}

func (r *plainRun) waitOut(t *testing.T, want string) { t.Helper(); r.wait(t, &r.out, "stdout", want) }
func (r *plainRun) waitErr(t *testing.T, want string) { t.Helper(); r.wait(t, &r.err, "stderr", want) }

func (r *plainRun) wait(t *testing.T, b *bytes.Buffer, name, want string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !strings.Contains(r.read(b), want) {
		if time.Now().After(deadline) {
			t.Fatalf("rollscope --plain never wrote %q on %s; it wrote:\n%s", want, name, r.read(b))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// unschedulable creates deployment name in ns whose one pod fits on no node:
// its rollout waits, with its progress deadline ten minutes away.
func (c *cluster) unschedulable(t *testing.T, ns, name string) {
	t.Helper()
	d := e2etest.Deployment(ns, name, 1, "e2e.example/web:v1")
	d.Spec.Template.Spec.NodeSelector = map[string]string{"rollscope.dev/e2e-nowhere": "true"}
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment %s/%s: %v", ns, name, err)
	}
}
