package console

import (
	"context"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/internal/tmuxtest"
)

// confirm presses key, waits for the dialog's plan, confirms with y and
// waits for the result line.
func confirm(s *tmuxtest.Session, key, plan, result string) string {
	s.Keys(key)
	s.WaitFor(plan)
	s.Keys("y")
	return s.WaitFor(result)
}

// setImageFromKeys drives the set image dialog of container app to image.
func setImageFromKeys(t *testing.T, s *tmuxtest.Session, from, to string) {
	t.Helper()
	s.Keys("i")
	s.WaitFor("> " + from)
	s.Keys("C-u")
	s.Keys("-l", to)
	s.Keys("Enter")
	screen := s.WaitFor("will send the same as")
	if !strings.Contains(screen, "set image deployment/web app="+to) {
		t.Errorf("the plan does not show the kubectl command:\n%s", screen)
	}
	s.WaitFor("forecast: ")
	s.Keys("y")
	s.WaitFor("set image app=" + to + ": ok")
}

// canaryFlow is the guided canary on the live cluster: set image from the
// keys, pause once the first new pod is ready, see the rollout held (on
// screen and in the API), resume and watch it finish.
func canaryFlow(t *testing.T, c *cluster) {
	r := rollout{namespace: "canary", name: "web", replicas: 4, image: "e2e.example/slow:v1"}
	c.create(t, r)
	s := c.console(t, c.CP.AdminKubeconfig, r.namespace, r.name)
	s.WaitFor("successfully rolled out")
	setImageFromKeys(t, s, r.image, "e2e.example/slow:v2")
	// maxSurge 1 / maxUnavailable 0: the second new pod is created only
	// once the first is available.
	s.WaitFor("2 out of 4 new replicas have been updated")
	confirm(s, "p", "rollout pause deployment/web", "pause: ok")
	screen := s.WaitFor("PAUSED")
	noCrash(t, screen)

	// The controller sees the pause and holds: once the pods it had
	// already created are ready, the ReplicaSets keep their sizes.
	c.Poll(t, "the deployment paused and its ReplicaSets settled", func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(r.namespace).Get(ctx, r.name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return d.Spec.Paused && d.Status.ReadyReplicas == d.Status.Replicas,
			fmt.Sprintf("paused %v, %d of %d ready", d.Spec.Paused, d.Status.ReadyReplicas, d.Status.Replicas), nil
	})
	c.steady(t, "the paused rollout's ReplicaSets", func(ctx context.Context) (string, error) {
		sizes, err := c.replicaSets(ctx, r.namespace, r.name)
		return fmt.Sprint(sizes), err
	})
	sizes, err := c.replicaSets(t.Context(), r.namespace, r.name)
	if err != nil {
		t.Fatal(err)
	}
	if sizes[c.newReplicaSet(t, r.namespace, r.name, "e2e.example/slow:v2")] == r.replicas {
		t.Fatalf("the rollout finished before the pause held it: %v", sizes)
	}
	screen = s.WaitFor("DeploymentPaused")
	if strings.Contains(screen, "successfully rolled out") {
		t.Fatalf("the paused rollout shows as finished:\n%s", screen)
	}

	confirm(s, "r", "rollout resume deployment/web", "resume: ok")
	c.waitRolledOut(t, r.namespace, r.name, "e2e.example/slow:v2")
	screen = s.WaitFor("successfully rolled out")
	if !strings.Contains(screen, "rev 2") || strings.Contains(screen, "PAUSED") {
		t.Errorf("the resumed rollout did not finish on revision 2, unpaused:\n%s", screen)
	}
	if c.deployment(t, r.namespace, r.name).Spec.Paused {
		t.Errorf("the deployment is still paused in the API")
	}
}

// rollbackFlow is the interactive rollback on the live cluster: after two
// revisions, undo from the history picker to revision 1, see the diff,
// confirm, and watch the rollout back to revision 1's image finish.
func rollbackFlow(t *testing.T, c *cluster) {
	r := rollout{namespace: "rollback", name: "web", replicas: 3, image: "e2e.example/web:v1"}
	c.create(t, r)
	c.setImage(t, r.namespace, r.name, "e2e.example/web:v2")
	c.waitRolledOut(t, r.namespace, r.name, "e2e.example/web:v2")
	s := c.console(t, c.CP.AdminKubeconfig, r.namespace, r.name)
	s.WaitUntil("revision 2 rolled out", func(screen string) bool {
		return strings.Contains(screen, "rev 2") && strings.Contains(screen, "successfully rolled out")
	})
	s.Keys("u")
	screen := s.WaitFor("undo to which revision?")
	if !strings.Contains(screen, "e2e.example/web:v1") {
		t.Errorf("the picker does not offer revision 1's image:\n%s", screen)
	}
	s.Keys("Enter")
	screen = s.WaitFor("current → revision 1")
	for _, want := range []string{"e2e.example/web:v2", "e2e.example/web:v1", "--to-revision=1"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the preview lacks %q:\n%s", want, screen)
		}
	}
	s.Keys("y")
	s.WaitFor("undo to revision 1: back on revision 1's template, now revision 3")
	c.waitRolledOut(t, r.namespace, r.name, "e2e.example/web:v1")
	screen = s.WaitUntil("revision 3 rolled out", func(screen string) bool {
		return strings.Contains(screen, "rev 3") && strings.Contains(screen, "successfully rolled out")
	})
	noCrash(t, screen)
	d := c.deployment(t, r.namespace, r.name)
	if got := d.Annotations["deployment.kubernetes.io/revision"]; got != "3" {
		t.Errorf("the deployment is at revision %q after the undo, want 3", got)
	}
}
