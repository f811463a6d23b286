package console

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// lostForAWhile is the banner of a watch lost 5 s or more ago because the
// API server refused the connection.
var lostForAWhile = regexp.MustCompile(`watch lost ([5-9]|[1-9]\d)s ago: .*connection refused`)

// firstLine is the top line of a screen.
func firstLine(screen string) string {
	line, _, _ := strings.Cut(screen, "\n")
	return line
}

// faultFlow stops the API server in the middle of a rollout the console
// watches: the console says it lost the cluster, keeps the last picture,
// and once the API server is back it reconnects by itself and shows the
// rollout's final state, the same as the API.
func faultFlow(t *testing.T, c *cluster) {
	r := rollout{namespace: "fault", name: "web", replicas: 6, image: "e2e.example/slow:v1"}
	c.create(t, r)
	old := c.newReplicaSet(t, r.namespace, r.name, r.image)
	s := c.console(t, c.CP.AdminKubeconfig, r.namespace, r.name)
	s.WaitUntil("revision 1 with 6 ready pods", wantRow(old, "stable", 6))

	c.setImage(t, r.namespace, r.name, "e2e.example/slow:v2")
	hash := c.newReplicaSet(t, r.namespace, r.name, "e2e.example/slow:v2")
	s.WaitUntil("the new ReplicaSet's first pod", func(screen string) bool {
		_, counts, ok := rsRow(screen, hash)
		return ok && counts[0] >= 1
	})

	c.CP.StopAPIServer()
	screen := s.WaitUntil("the disconnection", func(screen string) bool {
		return strings.Contains(screen, "watch lost") || strings.Contains(screen, "not connected")
	})
	if strings.Contains(screen, "successfully rolled out") {
		t.Errorf("the console shows the rollout finished while the API server is down:\n%s", screen)
	}
	noCrash(t, screen)
	// The API server stays down about 5 s: long enough for the banner to
	// count the outage, with the last known picture still on screen.
	screen = s.WaitMatch(lostForAWhile)
	if _, counts, ok := rsRow(screen, hash); !ok || counts[0] < 1 {
		t.Errorf("the last known state is gone from the screen while disconnected:\n%s", screen)
	}
	t.Logf("while the API server is down the console says:\n%s", firstLine(screen))
	if err := c.CP.StartAPIServer(t.Context()); err != nil {
		t.Fatalf("starting the API server again: %v", err)
	}

	restarted := time.Now()
	s.WaitUntil("the banner gone", func(screen string) bool {
		return !strings.Contains(screen, "watch lost") && !strings.Contains(screen, "not connected")
	})
	t.Logf("the console reconnected %s after the API server was started again", time.Since(restarted).Round(100*time.Millisecond))
	c.waitRolledOut(t, r.namespace, r.name, "e2e.example/slow:v2")
	screen = s.WaitUntil("the rollout's final state, reconnected", func(screen string) bool {
		return wantRow(hash, "stable", 6)(screen) && wantRow(old, "old", 0)(screen) &&
			strings.Contains(screen, "successfully rolled out") &&
			!strings.Contains(screen, "watch lost") && !strings.Contains(screen, "not connected")
	})
	noCrash(t, screen)
	sizes, err := c.replicaSets(t.Context(), r.namespace, r.name)
	if err != nil {
		t.Fatal(err)
	}
	if sizes[hash] != 6 || sizes[old] != 0 || len(sizes) != 2 {
		t.Errorf("the API has ReplicaSets %v; the console showed %s at 6 and %s at 0", sizes, hash, old)
	}

	// No pod missed across the reconnection: every old pod's deletion
	// reached the screen, and the new ReplicaSet's pods are exactly the
	// API's.
	var pods []string
	c.Poll(t, "only the new ReplicaSet's 6 pods left", func(ctx context.Context) (bool, string, error) {
		list, err := c.Admin.CoreV1().Pods(r.namespace).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil {
			return false, "", err
		}
		pods = pods[:0]
		for _, p := range list.Items {
			pods = append(pods, p.Name)
		}
		return len(pods) == 6 && strings.Count(strings.Join(pods, " "), "web-"+hash+"-") == 6, fmt.Sprint(pods), nil
	})
	// The Pods pane follows the newest ReplicaSet by itself.
	s.WaitUntil("the new ReplicaSet's pods, the same as the API's, and none of the old one's", func(screen string) bool {
		if !strings.Contains(screen, "Pods of web-"+hash+" (6)") || strings.Contains(screen, "web-"+old+"-") {
			return false
		}
		for _, p := range pods {
			if !strings.Contains(screen, p) {
				return false
			}
		}
		return true
	})
}
