package recorder

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/internal/tmuxtest"
	"rollscope/kube/recording"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait; it asserts nothing about speed.
const patience = 2 * time.Minute

// Pods are ready about 1.5 s after they are bound: a rollout of six pods
// one at a time takes ten seconds or so.
var images = []kubelet.ImageRule{{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 1100 * time.Millisecond}}

func startCluster(t *testing.T) *e2etest.Cluster {
	t.Helper()
	group := e2etest.HollowGroup(3, 500*time.Millisecond, e2etest.Capacity("110", "8", "16Gi"))
	return e2etest.Start(t, e2etest.Setup{Patience: patience, Rollscope: true, Nodes: live.Nodes{Groups: []nodegroup.Group{group}, Images: images, OnError: e2etest.IgnoreErrors}})
}

// TestRecordAndReplayOnALiveCluster runs both flows on one control plane.
func TestRecordAndReplayOnALiveCluster(t *testing.T) {
	c := startCluster(t)
	t.Run("console", func(t *testing.T) { t.Parallel(); consoleFlow(t, c) })
	t.Run("killed", func(t *testing.T) { t.Parallel(); killedFlow(t, c) })
}

func create(t *testing.T, c *e2etest.Cluster, ns string) {
	t.Helper()
	e2etest.Namespace(t, c.Admin, ns, patience)
	d := e2etest.OneAtATime(e2etest.Deployment(ns, "web", 6, "e2e.example/web:v1"))
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitRolledOut(t, c, ns, "e2e.example/web:v1")
}

func waitRolledOut(t *testing.T, c *e2etest.Cluster, ns, image string) {
	t.Helper()
	c.Poll(t, "web rolled out on "+image, func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		s := d.Status
		return s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == 6 && s.Replicas == 6 && s.AvailableReplicas == 6 &&
			d.Spec.Template.Spec.Containers[0].Image == image, fmt.Sprintf("%+v", s), nil
	})
}

func patch(t *testing.T, c *e2etest.Cluster, ns, body string) {
	t.Helper()
	if _, err := c.Admin.AppsV1().Deployments(ns).Patch(t.Context(), "web", types.StrategicMergePatchType, []byte(body), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

// steadyScreen is the screen once it has not changed for two seconds (a
// settled moment), and the wall clock's second when it settled, as the
// replay's --at reads it: the replay shows the end of that second, which
// is inside the two.
func steadyScreen(s *tmuxtest.Session) (string, string) {
	last, since := s.Screen(), time.Now()
	for time.Since(since) < 2*time.Second {
		time.Sleep(200 * time.Millisecond)
		if now := s.Screen(); now != last {
			last, since = now, time.Now()
		}
	}
	return last, since.Format(time.TimeOnly)
}

// withoutBadge is a screen without the replay's badge and clock, and the
// images its header gives up to their width.
func withoutBadge(screen string) string {
	lines := strings.Split(screen, "\n")
	for _, cut := range []string{"REPLAY ", "  …"} {
		if i := strings.Index(lines[0], cut); i >= 0 {
			lines[0] = lines[0][:i]
		}
	}
	lines[0] = strings.TrimRight(lines[0], " ")
	return strings.Join(lines, "\n")
}

// consoleFlow records a rollout from the console, held half-way by a
// pause and then finished, and replays each settled moment: the replay
// shows what the live console showed.
func consoleFlow(t *testing.T, c *e2etest.Cluster) {
	ns := "recorded"
	create(t, c, ns)
	file := filepath.Join(t.TempDir(), "web.rec")
	live := tmuxtest.Start(t, 160, 45, c.Bin, "--kubeconfig", c.CP.AdminKubeconfig, "-n", ns, "--record-to", file, "deploy/web")
	live.Timeout = patience
	live.WaitFor("successfully rolled out")
	patch(t, c, ns, `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"e2e.example/web:v2"}]}}}}`)
	live.WaitFor("new replicas have been updated")
	patch(t, c, ns, `{"spec":{"paused":true}}`)
	live.WaitFor("paused")
	held, heldAt := steadyScreen(live)
	patch(t, c, ns, `{"spec":{"paused":false}}`)
	waitRolledOut(t, c, ns, "e2e.example/web:v2")
	live.WaitFor("successfully rolled out")
	done, doneAt := steadyScreen(live)
	live.Keys("q")
	live.WaitFor("rollscope exited 0")
	for _, m := range []struct{ name, at, screen string }{{"paused half-way", heldAt, held}, {"finished", doneAt, done}} {
		replay := tmuxtest.Start(t, 160, 45, c.Bin, "replay", file, "deploy/web", "--at", m.at)
		replay.Timeout = patience
		replay.WaitFor("REPLAY")
		got, _ := steadyScreen(replay)
		if withoutBadge(got) != withoutBadge(m.screen) {
			t.Errorf("%s at %s: the replay shows\n%s\nthe live console showed\n%s", m.name, m.at, got, m.screen)
		}
	}
}

// killedFlow records headless with `rollscope record`, killed with
// SIGKILL mid-rollout: the replay opens and reaches its last second.
func killedFlow(t *testing.T, c *e2etest.Cluster) {
	ns := "killed"
	create(t, c, ns)
	file := filepath.Join(t.TempDir(), "killed.rec")
	rec := exec.Command(c.Bin, "record", "--kubeconfig", c.CP.AdminKubeconfig, "-n", ns, "-o", file)
	if err := rec.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the first list recorded
	patch(t, c, ns, `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"e2e.example/web:v2"}]}}}}`)
	c.Poll(t, "three new pods ready", func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return d.Status.UpdatedReplicas >= 3, fmt.Sprintf("%+v", d.Status), nil
	})
	time.Sleep(1500 * time.Millisecond) // a member closed mid-rollout
	rec.Process.Kill()
	rec.Wait()
	tape, err := recording.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	last := tape.End().Format(time.TimeOnly)
	replay := tmuxtest.Start(t, 160, 45, c.Bin, "replay", file, "deploy/web", "--at", last)
	replay.Timeout = patience
	s := replay.WaitFor("REPLAY")
	for _, want := range []string{last, "deploy web", "rev 2", "new replicas have been updated"} {
		if !strings.Contains(s, want) {
			t.Errorf("the replay of the killed recording at %s lacks %q:\n%s", last, want, s)
		}
	}
}
