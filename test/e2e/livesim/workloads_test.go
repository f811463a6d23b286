package livesim

import (
	"context"
	"rollscope/test/e2e/e2etest"
	"testing"
	"time"
)

// workloadsScenario rolls a StatefulSet and a DaemonSet side by side.
const workloadsScenario = "../testdata/livesim/workloads.yaml"

// `rollscope simulate --kubeconfig` follows StatefulSets and DaemonSets on a
// control plane whose kube-controller-manager runs their controllers: the
// trace has their lines as they roll, their scripted set images run, and the
// run ends on its own only once both are rolled out — every ordinal and
// every node on the new revision, available.
func TestSimulateStatefulSetsAndDaemonSetsOnALiveCluster(t *testing.T) {
	c := e2etest.Start(t, e2etest.Setup{Rollscope: true, Controllers: []string{"statefulset-controller", "daemonset-controller"}})
	bin, cp, client := c.Bin, c.CP, c.Admin
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()

	run := finishedRun(ctx, t, bin, cp.AdminKubeconfig, workloadsScenario)
	var sts, ds []map[string]any
	actions := 0
	for _, l := range run.trace() {
		switch l["type"] {
		case "statefulset":
			if l["name"] == "db" {
				sts = append(sts, l)
			}
		case "daemonset":
			if l["name"] == "agent" {
				ds = append(ds, l)
			}
		case "action":
			actions++
		}
	}
	if actions != 2 {
		t.Errorf("%d action lines, want the two set images; trace:\n%s", actions, run.text())
	}
	if len(sts) < 2 || len(ds) < 2 {
		t.Fatalf("%d statefulset and %d daemonset lines, want both rollouts followed; trace:\n%s", len(sts), len(ds), run.text())
	}
	// The StatefulSet starts on one revision and ends on another, every
	// ordinal updated and available: the run did not end before it did.
	last := sts[len(sts)-1]
	if last["updated"] != 3.0 || last["available"] != 3.0 || last["ready"] != 3.0 || last["replicas"] != 3.0 ||
		last["currentRevision"] != last["updateRevision"] || last["updateRevision"] == "" {
		t.Errorf("last statefulset line %v, want 3 pods updated and available on one revision", last)
	}
	rolled := false
	for _, l := range sts {
		if l["updateRevision"] != "" && l["updateRevision"] != last["updateRevision"] {
			rolled = true
		}
	}
	if !rolled {
		t.Errorf("the trace does not show the StatefulSet move to a new revision: %v … %v", sts[0], last)
	}
	if l := ds[len(ds)-1]; l["desired"] != 2.0 || l["updated"] != 2.0 || l["available"] != 2.0 || l["current"] != 2.0 || l["misscheduled"] != 0.0 {
		t.Errorf("last daemonset line %v, want one updated, available pod on each of the 2 nodes", l)
	}
	sawOld := false
	for _, l := range ds {
		if u, ok := l["updated"].(float64); ok && u < 2 && l["desired"] == 2.0 {
			sawOld = true
		}
	}
	if !sawOld {
		t.Errorf("the trace never shows the DaemonSet part way through its rollout:\n%s", run.text())
	}
	checkCleanedUp(ctx, t, client, run.namespace(t))
}
