package fleet

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/cluster"
)

// TestTheFleetIsWhatItSays checks the fixture itself on the real control
// plane, before any test holds rollscope to it: each workload is in the
// state the fixture promises, for the reason it promises, as the API
// reports it.
func TestTheFleetIsWhatItSays(t *testing.T) {
	c := fleetCluster(t)
	ctx := t.Context()
	api, err := readTruth(ctx, c.admin, namespaces)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range fleet {
		t.Logf("%-28s %s", w.key(), api[w.key()])
	}

	ledger, err := c.admin.AppsV1().Deployments(teamB).Get(ctx, "ledger", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var progressing string
	for _, cond := range ledger.Status.Conditions {
		if cond.Type == "Progressing" {
			progressing = string(cond.Status) + " " + cond.Reason + ": " + cond.Message
		}
	}
	if !strings.HasPrefix(progressing, "False ProgressDeadlineExceeded") || api[teamB+" deploy/ledger"].Revision != 2 {
		t.Errorf("ledger: Progressing %q, revision %d; want the real controller's ProgressDeadlineExceeded on revision 2", progressing, api[teamB+" deploy/ledger"].Revision)
	}

	checkout, err := c.admin.AppsV1().Deployments(teamA).Get(ctx, "checkout", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if img := checkout.Spec.Template.Spec.Containers[0].Image; !checkout.Spec.Paused || img != image("checkout", "v2") || api[teamA+" deploy/checkout"].Revision != 1 {
		t.Errorf("checkout: paused %v, image %s, revision %d; want paused with v2 pending on revision 1", checkout.Spec.Paused, img, api[teamA+" deploy/checkout"].Revision)
	}

	pods, err := c.admin.CoreV1().Pods(teamC).List(ctx, metav1.ListOptions{LabelSelector: "app=search"})
	if err != nil {
		t.Fatal(err)
	}
	crashing := 0
	for _, p := range pods.Items {
		for _, cs := range p.Status.ContainerStatuses {
			if cs.RestartCount > 0 && cs.Image == image("search", "v2-crash") {
				crashing++
			}
		}
	}
	if crashing != 1 {
		t.Errorf("search: %d restarting pods on v2-crash, want 1 (maxSurge 1, maxUnavailable 0)", crashing)
	}

	if r := api[teamB+" deploy/reports"]; r.State != cluster.FleetRolling || r.Revision != 2 || r.Updated == r.Desired {
		t.Errorf("reports: %s; want rolling revision 2, part of the way", r)
	}
	if r := api[teamC+" ds/log-agent"]; r.Desired != hollowNodes || r.Revision != 1 {
		t.Errorf("log-agent: %s; want one pod on each of the %d nodes, revision 1", r, hollowNodes)
	}
	if r := api[teamA+" sts/sessions"]; r.Available != 2 || r.Revision != 1 {
		t.Errorf("sessions: %s; want 2 available on revision 1", r)
	}
}
