package console

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait on the cluster or the screen. It only bounds a
// failing test; the tests assert nothing about speed.
const patience = 2 * time.Minute

// The hollow kubelets' images: a pod is ready about 1.5 s after it is
// bound, or 3.4 s for the slow image, whose rollouts the canary and the
// fault flows catch half way.
var images = []kubelet.ImageRule{
	{Match: "e2e.example/slow:*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 3 * time.Second},
	{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 1100 * time.Millisecond},
}

// cluster is the control plane the package's flows share, with hollow
// nodes running on it.
type cluster struct{ *e2etest.Cluster }

// startCluster builds rollscope, then starts the control plane and three
// hollow nodes.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	group := e2etest.HollowGroup(3, 500*time.Millisecond, e2etest.Capacity("110", "8", "16Gi"))
	// Syncs fail while the fault flow has the API server down; they are
	// retried, so they are not the test's business.
	nodes := live.Nodes{Groups: []nodegroup.Group{group}, Images: images, OnError: e2etest.IgnoreErrors}
	return &cluster{e2etest.Start(t, e2etest.Setup{Patience: patience, Rollscope: true, Nodes: nodes})}
}

// steady reads something from the API a few times, a second apart, and
// fails the test when it changes: a second is longer than any step of the
// tests' rollouts takes, so a rollout that is not held would move. It
// returns what it read.
func (c *cluster) steady(t *testing.T, what string, read func(ctx context.Context) (string, error)) string {
	t.Helper()
	first, err := read(t.Context())
	if err != nil {
		t.Fatalf("reading %s: %v", what, err)
	}
	for range 3 {
		time.Sleep(time.Second)
		now, err := read(t.Context())
		if err != nil {
			t.Fatalf("reading %s: %v", what, err)
		}
		if now != first {
			t.Fatalf("%s changed: %s, then %s", what, first, now)
		}
	}
	return first
}

// rollout is a Deployment rolled one pod at a time (maxSurge 1,
// maxUnavailable 0) of container "app".
type rollout struct {
	namespace, name string
	replicas        int32
	image           string
}

// create makes the namespace (waiting for its default service account,
// without which pods are refused) and the deployment, and waits until the
// rollout is complete.
func (c *cluster) create(t *testing.T, r rollout) {
	t.Helper()
	ctx := t.Context()
	e2etest.Namespace(t, c.Admin, r.namespace, patience)
	d := e2etest.OneAtATime(e2etest.Deployment(r.namespace, r.name, r.replicas, r.image))
	if _, err := c.Admin.AppsV1().Deployments(r.namespace).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment %s/%s: %v", r.namespace, r.name, err)
	}
	c.waitRolledOut(t, r.namespace, r.name, r.image)
}

// deployment reads the deployment now.
func (c *cluster) deployment(t *testing.T, namespace, name string) *appsv1.Deployment {
	t.Helper()
	d, err := c.Admin.AppsV1().Deployments(namespace).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading deployment %s/%s: %v", namespace, name, err)
	}
	return d
}

// waitRolledOut waits until the API says what `kubectl rollout status`
// calls successfully rolled out, on image.
func (c *cluster) waitRolledOut(t *testing.T, namespace, name, image string) {
	t.Helper()
	c.Poll(t, fmt.Sprintf("deployment %s/%s rolled out on %s", namespace, name, image), func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		s := d.Status
		want := *d.Spec.Replicas
		done := s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == want && s.Replicas == want &&
			s.AvailableReplicas == want && d.Spec.Template.Spec.Containers[0].Image == image
		return done, fmt.Sprintf("generation %d observed %d, image %s, %d replicas: %d updated, %d available",
			d.Generation, s.ObservedGeneration, d.Spec.Template.Spec.Containers[0].Image, s.Replicas, s.UpdatedReplicas, s.AvailableReplicas), nil
	})
}

// setImage changes the image as `kubectl set image` does: a strategic merge
// patch of the container.
func (c *cluster) setImage(t *testing.T, namespace, name, image string) {
	t.Helper()
	patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":%q}]}}}}`, image)
	if _, err := c.Admin.AppsV1().Deployments(namespace).Patch(t.Context(), name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("setting the image of %s/%s: %v", namespace, name, err)
	}
}

// replicaSets reads the deployment's ReplicaSets by pod-template-hash:
// spec.replicas of each.
func (c *cluster) replicaSets(ctx context.Context, namespace, name string) (map[string]int32, error) {
	list, err := c.Admin.AppsV1().ReplicaSets(namespace).List(ctx, metav1.ListOptions{LabelSelector: "app=" + name})
	if err != nil {
		return nil, err
	}
	out := map[string]int32{}
	for _, rs := range list.Items {
		out[rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey]] = *rs.Spec.Replicas
	}
	return out, nil
}

// console starts rollscope in tmux on the given kubeconfig and namespace,
// opening deployment name.
func (c *cluster) console(t *testing.T, kubeconfig, namespace, name string, flags ...string) *tmuxtest.Session {
	t.Helper()
	argv := append([]string{c.Bin, "--kubeconfig", kubeconfig, "-n", namespace}, flags...)
	s := tmuxtest.Start(t, 160, 45, append(argv, name)...)
	s.Timeout = patience
	return s
}

// rsRow reads the console's row for the ReplicaSet with pod-template-hash
// hash: its role and DESIRED, CUR, READY, AVAIL. ok is false when the
// screen has no such row.
func rsRow(screen, hash string) (role string, counts [4]int, ok bool) {
	re := regexp.MustCompile(`\s(\w+)\s+` + regexp.QuoteMeta(hash) + `\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s`)
	m := re.FindStringSubmatch(screen)
	if m == nil {
		return "", counts, false
	}
	for i := range counts {
		counts[i], _ = strconv.Atoi(m[i+2])
	}
	return m[1], counts, true
}

// wantRow is a check for Session.WaitUntil: the ReplicaSet's row shows role
// and DESIRED, CUR, READY, AVAIL all equal to n.
func wantRow(hash, role string, n int) func(string) bool {
	return func(screen string) bool {
		r, counts, ok := rsRow(screen, hash)
		return ok && r == role && counts == [4]int{n, n, n, n}
	}
}

// newReplicaSet waits until the deployment has a ReplicaSet of image and
// returns its pod-template-hash.
func (c *cluster) newReplicaSet(t *testing.T, namespace, name, image string) string {
	t.Helper()
	hash := ""
	c.Poll(t, "a ReplicaSet of "+image, func(ctx context.Context) (bool, string, error) {
		list, err := c.Admin.AppsV1().ReplicaSets(namespace).List(ctx, metav1.ListOptions{LabelSelector: "app=" + name})
		if err != nil {
			return false, "", err
		}
		for _, rs := range list.Items {
			if rs.Spec.Template.Spec.Containers[0].Image == image {
				hash = rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey]
				return true, "", nil
			}
		}
		return false, fmt.Sprintf("%d ReplicaSets, none of %s", len(list.Items), image), nil
	})
	return hash
}

// noCrash fails the test when the screen shows a Go panic or stack trace.
func noCrash(t *testing.T, screen string) {
	t.Helper()
	for _, sign := range []string{"panic:", "goroutine ", ".go:", "rollscope exited"} {
		if strings.Contains(screen, sign) {
			t.Fatalf("the console crashed or printed a trace (%q):\n%s", sign, screen)
		}
	}
}
