package livetruth

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait on the cluster or the screen. It only bounds a
// failing test; the tests assert nothing about speed except where the
// operator is promised a time (the banner of a frozen API server).
const patience = 2 * time.Minute

// The hollow kubelets' images: ready about 1.5 s after binding; a
// stubborn container takes ten minutes to stop, so that a deleted pod stays
// Terminating for its whole grace period; a nopull image is never pulled.
var images = []kubelet.ImageRule{
	{Match: "e2e.example/stubborn:*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 1100 * time.Millisecond, Stop: 10 * time.Minute},
	// Never pulled: a rollout of it exceeds its progress deadline.
	{Match: "e2e.example/nopull:*", Pull: 200 * time.Millisecond, PullError: true},
	{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 1100 * time.Millisecond},
}

// cluster is the control plane the flows share, with hollow nodes.
type cluster struct{ *e2etest.Cluster }

func startCluster(t *testing.T) *cluster {
	t.Helper()
	group := e2etest.HollowGroup(3, 500*time.Millisecond, e2etest.Capacity("110", "8", "16Gi"))
	// Syncs fail while the frozen flow holds the API server; they are
	// retried, so they are not the test's business.
	nodes := live.Nodes{Groups: []nodegroup.Group{group}, Images: images, OnError: e2etest.IgnoreErrors}
	return &cluster{e2etest.Start(t, e2etest.Setup{Patience: patience, Rollscope: true, Nodes: nodes})}
}

// deploy creates namespace ns (unless it exists) and deployment web of two
// replicas of image, rolled one pod at a time, and waits until it is rolled
// out.
func (c *cluster) deploy(t *testing.T, ns, image string) {
	t.Helper()
	c.Namespace(t, ns)
	d := e2etest.OneAtATime(e2etest.Deployment(ns, "web", 2, image))
	grace := int64(600)
	d.Spec.Template.Spec.TerminationGracePeriodSeconds = &grace
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment %s/web: %v", ns, err)
	}
	c.waitRolledOut(t, ns, image)
}

// waitRolledOut waits until the API says the deployment is rolled out on
// image, as kubectl rollout status would.
func (c *cluster) waitRolledOut(t *testing.T, ns, image string) {
	t.Helper()
	c.Poll(t, fmt.Sprintf("deployment %s/web rolled out on %s", ns, image), func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		s, want := d.Status, *d.Spec.Replicas
		done := s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == want && s.Replicas == want &&
			s.AvailableReplicas == want && d.Spec.Template.Spec.Containers[0].Image == image
		return done, fmt.Sprintf("image %s, %d replicas: %d updated, %d available", d.Spec.Template.Spec.Containers[0].Image, s.Replicas, s.UpdatedReplicas, s.AvailableReplicas), nil
	})
}

// patch sends a strategic merge patch to deployment web, as kubectl set
// image and kubectl rollout pause do.
func (c *cluster) patch(t *testing.T, ns, body string) {
	t.Helper()
	if _, err := c.Admin.AppsV1().Deployments(ns).Patch(t.Context(), "web", types.StrategicMergePatchType, []byte(body), metav1.PatchOptions{}); err != nil {
		t.Fatalf("patching %s/web with %s: %v", ns, body, err)
	}
}

func (c *cluster) setImage(t *testing.T, ns, image string) {
	t.Helper()
	c.patch(t, ns, fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":%q}]}}}}`, image))
}

// resourceVersion reads the deployment's resourceVersion: what any write
// would change.
// written is the deployment's generation, which any write of its spec or
// annotations moves and the controllers' status updates do not: what the
// tests compare to say nothing was sent.
func (c *cluster) written(t *testing.T, ns string) string {
	t.Helper()
	d, err := c.Admin.AppsV1().Deployments(ns).Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading %s/web: %v", ns, err)
	}
	return fmt.Sprintf("generation %d", d.Generation)
}

// console starts rollscope in tmux, w×h cells, on kubeconfig and namespace
// ns, opening deployment web.
func (c *cluster) console(t *testing.T, w, h int, kubeconfig, ns string, flags ...string) *tmuxtest.Session {
	t.Helper()
	argv := append([]string{c.Bin, "--kubeconfig", kubeconfig, "-n", ns}, flags...)
	s := tmuxtest.Start(t, w, h, append(argv, "web")...)
	s.Timeout = patience
	return s
}

// noCrash fails the test when the screen shows a Go panic or stack trace.
func noCrash(t *testing.T, screen string) {
	t.Helper()
	for _, bad := range []string{"panic:", "goroutine ", ".go:"} {
		if strings.Contains(screen, bad) {
			t.Fatalf("the screen shows %q:\n%s", bad, screen)
		}
	}
}
