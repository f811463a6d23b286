package livetruth

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pendingFlow: kubectl rollout pause, then kubectl set image. No
// ReplicaSet runs the new image; the header says it is pending, and an
// undo to the revision number still shown says it discards it instead of
// "nothing to send".
func pendingFlow(t *testing.T, c *cluster) {
	const ns = "pending"
	c.deploy(t, ns, "e2e.example/web:v1")
	c.setImage(t, ns, "e2e.example/web:v2")
	c.waitRolledOut(t, ns, "e2e.example/web:v2")
	c.patch(t, ns, `{"spec":{"paused":true}}`)
	c.setImage(t, ns, "e2e.example/web:v3")

	s := c.console(t, 160, 45, c.CP.AdminKubeconfig, ns)
	screen := s.WaitFor("pending, rolled out on resume: app e2e.example/web:v2 → e2e.example/web:v3")
	noCrash(t, screen)
	before := c.written(t, ns)

	s.Keys("u")
	s.WaitFor("undo to which revision?")
	s.Keys("j") // from revision 1, the previous one, to revision 2: the number shown
	screen = s.WaitFor("rolls deployment/web back to revision 2")
	if !strings.Contains(screen, "discards the pending change no ReplicaSet runs yet: app e2e.example/web:v2 → e2e.example/web:v3") {
		t.Errorf("undo to revision 2 does not say it discards v3:\n%s", screen)
	}
	if strings.Contains(screen, "already at revision 2") || strings.Contains(screen, "nothing to send") {
		t.Errorf("undo to revision 2 is refused as nothing to send although it would discard v3:\n%s", screen)
	}
	t.Logf("undo to revision 2 with v3 pending:\n%s", screen)
	s.Keys("Escape")
	s.WaitUntil("the dialog closed", func(screen string) bool { return !strings.Contains(screen, "undo to which revision?") })
	if after := c.written(t, ns); after != before {
		t.Errorf("the deployment changed (%s → %s) although the undo was cancelled", before, after)
	}
}

// terminatingFlow: a pod being deleted (its container takes long to stop)
// reads Terminating, as kubectl get pods says, and is counted apart from
// the ReplicaSet's replicas, which its replacement makes whole again.
func terminatingFlow(t *testing.T, c *cluster) {
	const ns = "terminating"
	c.deploy(t, ns, "e2e.example/stubborn:v1")
	pods, err := c.Admin.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil || len(pods.Items) != 2 {
		t.Fatalf("listing the pods: %v (%d pods)", err, len(pods.Items))
	}
	victim := pods.Items[0].Name
	t.Cleanup(func() { c.forceDeletePods(ns) })

	s := c.console(t, 160, 45, c.CP.AdminKubeconfig, ns)
	s.WaitFor(victim)
	if err := c.Admin.CoreV1().Pods(ns).Delete(t.Context(), victim, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting pod %s: %v", victim, err)
	}
	row := regexp.MustCompile(regexp.QuoteMeta(victim) + `\s+\d/\d\s+(\S+)`)
	screen := s.WaitUntil("the deleted pod Terminating, counted apart", func(screen string) bool {
		m := row.FindStringSubmatch(screen)
		return m != nil && m[1] == "Terminating" && strings.Contains(screen, " (2 + 1 terminating)")
	})
	noCrash(t, screen)
	t.Logf("a pod being deleted:\n%s", screen)

	// The API agrees: the pod is being deleted, and kubectl's word for it
	// is Terminating whatever its phase says.
	p, err := c.Admin.CoreV1().Pods(ns).Get(t.Context(), victim, metav1.GetOptions{})
	if err != nil || p.DeletionTimestamp == nil {
		t.Fatalf("pod %s: %v, deletionTimestamp %v", victim, err, p.DeletionTimestamp)
	}
	if p.Status.Phase != corev1.PodRunning {
		t.Logf("pod %s phase %s", victim, p.Status.Phase)
	}
}

// forceDeletePods removes the namespace's pods at once, so that stubborn
// containers do not outlive the test.
func (c *cluster) forceDeletePods(ns string) {
	zero := int64(0)
	_ = c.Admin.CoreV1().Pods(ns).DeleteCollection(context.Background(), metav1.DeleteOptions{GracePeriodSeconds: &zero}, metav1.ListOptions{})
}

// envFlow: set env with a name kubectl set env refuses is refused in the
// dialog, in kubectl's terms, and nothing reaches the API server.
func envFlow(t *testing.T, c *cluster) {
	const ns = "env"
	c.deploy(t, ns, "e2e.example/web:v1")
	before := c.written(t, ns)
	s := c.console(t, 160, 45, c.CP.AdminKubeconfig, ns)
	s.WaitFor("successfully rolled out")
	s.Keys("e")
	// Only once the dialog asks: typed into the main screen, these
	// letters would be keys.
	s.WaitFor("NAME=value to set, NAME- to remove, in app")
	s.Keys("C-u")
	s.Keys("-l", "BAD NAME=1")
	s.Keys("Enter")
	screen := s.WaitFor(`"BAD NAME" is not a valid key name`)
	noCrash(t, screen)
	t.Logf("set env BAD NAME=1:\n%s", screen)
	s.Keys("y") // refused input sends nothing, whatever is pressed next
	s.Keys("Enter")
	time.Sleep(2 * time.Second)
	if after := c.written(t, ns); after != before {
		t.Errorf("the deployment changed (%s → %s): a refused env name was sent", before, after)
	}
	d, err := c.Admin.AppsV1().Deployments(ns).Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if env := d.Spec.Template.Spec.Containers[0].Env; len(env) != 0 {
		t.Errorf("the container has env %v", env)
	}
}

// deletedFlow: a deployment deleted while the console shows it says it was
// deleted, and when, and its timeline ends with the deletion; a namespace
// that does not exist says so.
func deletedFlow(t *testing.T, c *cluster) {
	const ns = "deleted"
	c.deploy(t, ns, "e2e.example/web:v1")
	s := c.console(t, 160, 45, c.CP.AdminKubeconfig, ns)
	s.WaitFor("successfully rolled out")
	if err := c.Admin.AppsV1().Deployments(ns).Delete(t.Context(), "web", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting the deployment: %v", err)
	}
	deleted := time.Now()
	screen := s.WaitFor("deployment deleted/web was deleted")
	noCrash(t, screen)
	if !strings.Contains(screen, "deployment deleted") || strings.Contains(screen, "nothing has happened yet") {
		t.Errorf("the timeline does not end with the deletion:\n%s", screen)
	}
	// The stamp is the wall clock's when the console saw it, within a
	// few seconds of the delete.
	m := regexp.MustCompile(`was deleted \S+ ago \(at (\d\d:\d\d:\d\d)\)`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no time of deletion:\n%s", screen)
	}
	at, _ := time.ParseInLocation("15:04:05", m[1], time.Local)
	at = time.Date(deleted.Year(), deleted.Month(), deleted.Day(), at.Hour(), at.Minute(), at.Second(), 0, time.Local)
	if d := at.Sub(deleted.Truncate(time.Second)); d < -time.Second || d > 10*time.Second {
		t.Errorf("deleted at %s, the console says %s", deleted.Format("15:04:05"), m[1])
	}

	s2 := c.console(t, 160, 45, c.CP.AdminKubeconfig, "no-such-namespace")
	screen = s2.WaitFor(`namespace "no-such-namespace" does not exist`)
	noCrash(t, screen)
	if strings.Contains(screen, "not found (yet)") {
		t.Errorf("the missing namespace reads as a deployment not found yet:\n%s", screen)
	}
}
