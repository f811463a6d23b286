package largelist

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

	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/e2etest"
)

// pods is how many the namespace holds: enough that their first list is
// one of the console's longest requests.
const pods = 3000

// requestTimeout is --request-timeout: far shorter than a watch lives, and
// than a stream of every pod on this shared machine may take.
const requestTimeout = "2s"

// TestThousandsOfPodsUnderATightRequestTimeout: with --request-timeout 2s
// the console lists 3,000 pods, shows the ReplicaSet's pods and a synced,
// live picture — its watches, which outlive the timeout, are not cut — and
// never says the ReplicaSet has no pods while they are being listed.
func TestThousandsOfPodsUnderATightRequestTimeout(t *testing.T) {
	c := e2etest.Start(t, e2etest.Setup{Patience: 3 * time.Minute, Rollscope: true})
	ns, name := "large", "web"
	c.Namespace(t, ns)
	// No nodes: the pods stay Pending, which lists them as fast as any.
	d := e2etest.Deployment(ns, name, pods, "e2e.example/web:v1")
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	hash := ""
	c.Poll(t, fmt.Sprintf("%d pods created", pods), func(ctx context.Context) (bool, string, error) {
		list, err := c.Admin.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(list.Items) != 1 {
			return false, fmt.Sprint(len(list.Items), " ReplicaSets"), err
		}
		rs := list.Items[0]
		hash = rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey]
		return rs.Status.Replicas == pods, fmt.Sprint(rs.Status.Replicas, " pods"), nil
	})

	s := tmuxtest.Start(t, 160, 45, c.Bin, "--kubeconfig", c.CP.AdminKubeconfig, "--request-timeout", requestTimeout, "-n", ns, name)
	s.Timeout = 2 * time.Minute
	var falseEmpty string
	listing := false
	s.WaitUntil("the ReplicaSet's 3,000 pods listed and the picture synced", func(screen string) bool {
		if strings.Contains(screen, "no pods") && falseEmpty == "" {
			falseEmpty = screen
		}
		listing = listing || strings.Contains(screen, "listing pods…")
		return pendingRow(screen, hash) && strings.Contains(screen, name+"-"+hash+"-") && !strings.Contains(screen, "listing ")
	})
	if falseEmpty != "" {
		t.Errorf("while the pods were listed the console said there were none:\n%s", falseEmpty)
	}
	t.Logf("a listing line was caught on screen: %v", listing)

	// Several timeouts later the watches still stand: a watch cut by the
	// timeout would show as lost.
	deadline := time.Now().Add(6 * time.Second)
	for time.Now().Before(deadline) {
		screen := s.Screen()
		for _, lost := range []string{"watch lost", "not connected", "listing "} {
			if strings.Contains(screen, lost) {
				t.Fatalf("with --request-timeout %s the console said %q:\n%s", requestTimeout, lost, screen)
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// pendingRow reports whether the screen's row of the ReplicaSet with
// pod-template-hash hash shows all its pods current and none ready (no
// node runs them): DESIRED, CUR, READY, AVAIL = pods, pods, 0, 0.
func pendingRow(screen, hash string) bool {
	m := regexp.MustCompile(regexp.QuoteMeta(hash) + `\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s`).FindStringSubmatch(screen)
	if m == nil {
		return false
	}
	want := []int{pods, pods, 0, 0}
	for i, w := range want {
		if n, _ := strconv.Atoi(m[i+1]); n != w {
			return false
		}
	}
	return true
}
