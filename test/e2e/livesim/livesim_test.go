package livesim

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/live"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/e2etest"
)

// TestSimulateOnALiveCluster shares one control plane: the runs that leave
// the API server alone go side by side (each has its own namespace and
// hollow nodes), then the API server restart has the cluster to itself.
func TestSimulateOnALiveCluster(t *testing.T) {
	c := e2etest.Start(t, e2etest.Setup{Rollscope: true})
	bin, cp, client := c.Bin, c.CP, c.Admin
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	api := recordAPI(ctx, t, client)

	t.Run("side by side", func(t *testing.T) {
		t.Run("finishes", func(t *testing.T) {
			t.Parallel()
			run := startSim(t, bin, cp.AdminKubeconfig, "-f", smallScenario)
			if code := run.wait(ctx, t); code != 0 {
				t.Fatalf("exit code %d, stderr: %s", code, run.stderr.String())
			}
			if reason := endReason(t, run); reason != "quiescent" {
				t.Errorf("end reason %q, want quiescent (every rollout finished)", reason)
			}
			ns := run.namespace(t)
			checkFinalState(t, run, api.finalIn(ctx, t, ns))
			checkNewImageRolledOut(t, run, 3)
			checkCleanedUp(ctx, t, client, ns)
		})
		t.Run("Ctrl-C", func(t *testing.T) {
			t.Parallel()
			run := startSim(t, bin, cp.AdminKubeconfig, "-f", smallScenario)
			run.waitLine(ctx, t, "the new ReplicaSet scaled up", func(l map[string]any) bool {
				return l["type"] == "replicaset" && l["revision"] == 2.0 && l["spec"].(float64) > 0
			})
			ns := run.namespace(t)
			if err := run.cmd.Process.Signal(interrupt); err != nil {
				t.Fatal(err)
			}
			// Promptly: the cleanup's own bound is two minutes; a run that
			// cleans up as it should is done in seconds.
			exitCtx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			if code := run.wait(exitCtx, t); code != 1 {
				t.Errorf("exit code %d after Ctrl-C, want 1", code)
			}
			if reason := endReason(t, run); reason != "canceled" {
				t.Errorf("end reason %q after Ctrl-C, want canceled; trace:\n%s", reason, run.text())
			}
			if !strings.Contains(run.stderr.String(), "interrupted") {
				t.Errorf("stderr does not say the run was interrupted: %s", run.stderr.String())
			}
			checkCleanedUp(ctx, t, client, ns)
		})
		t.Run("drain", func(t *testing.T) {
			t.Parallel()
			run := finishedRun(ctx, t, bin, cp.AdminKubeconfig, drainScenario)
			drained := lastNodeLine(run, "nodes-1")
			if drained["unschedulable"] != true || drained["pods"] != 0.0 {
				t.Errorf("nodes-1 at the end: %v, want cordoned with no pods; trace:\n%s", drained, run.text())
			}
			if other := lastNodeLine(run, "nodes-0"); other["pods"] != 4.0 {
				t.Errorf("nodes-0 at the end: %v, want all 4 pods", other)
			}
			checkNodeEvent(t, run, "nodes-1", "Drained", "Node nodes-1 drained")
			checkCleanedUp(ctx, t, client, run.namespace(t))
		})
		t.Run("view-only user", func(t *testing.T) {
			t.Parallel()
			before := simulationNamespaces(ctx, t, cp)
			run := startSim(t, bin, cp.ViewerKubeconfig, "-f", "canary")
			if code := run.wait(ctx, t); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			stderr := run.stderr.String()
			t.Logf("refused: %s", stderr)
			if strings.Count(stderr, "\n") != 0 || !strings.Contains(stderr, "may not create namespaces") {
				t.Errorf("stderr is not one line saying the user may not create namespaces:\n%s", stderr)
			}
			if out := run.text(); out != "" {
				t.Errorf("a refused run wrote a trace:\n%s", out)
			}
			for ns := range simulationNamespaces(ctx, t, cp) {
				if !before[ns] && strings.HasPrefix(ns, "rollscope-sim-canary-") {
					t.Errorf("the refused run left namespace %s", ns)
				}
			}
		})
	})

	t.Run("API server restart mid-rollout", func(t *testing.T) {
		run := startSim(t, bin, cp.AdminKubeconfig, "-f", rolloutScenario)
		run.waitLine(ctx, t, "the new ReplicaSet scaled up", func(l map[string]any) bool {
			return l["type"] == "replicaset" && l["revision"] == 2.0 && l["spec"].(float64) > 0
		})
		ns := run.namespace(t)
		stopping := time.Now()
		cp.StopAPIServer()
		t.Logf("API server stopped in %s", time.Since(stopping).Round(time.Millisecond))
		// The outage lasts a while on purpose: long enough for every watch
		// to break and for pods to become ready that nobody sees.
		time.Sleep(5 * time.Second)
		select {
		case <-run.exited:
			t.Fatalf("rollscope exited during the outage (%v): %s", run.err, run.stderr.String())
		default:
		}
		if err := cp.StartAPIServer(ctx); err != nil {
			t.Fatalf("restarting the API server: %v", err)
		}
		restarted := time.Now()
		run.waitLine(ctx, t, "the end line", func(l map[string]any) bool { return l["type"] == "end" })
		t.Logf("the trace ended %s after the API server was back", time.Since(restarted).Round(time.Millisecond))
		if code := run.wait(ctx, t); code != 0 {
			t.Fatalf("exit code %d, stderr: %s", code, run.stderr.String())
		}
		t.Logf("rollscope exited %s after the API server was back", time.Since(restarted).Round(time.Millisecond))
		// The outage is said while it lasts, not only in the trace's silence.
		stderr := run.stderr.String()
		if !strings.Contains(stderr, "lost the API server") || !strings.Contains(stderr, "the API server answers again") {
			t.Errorf("stderr does not tell of the outage and the recovery:\n%s", stderr)
		}
		if reason := endReason(t, run); reason != "quiescent" {
			t.Errorf("end reason %q, want quiescent", reason)
		}
		checkFinalState(t, run, api.finalIn(ctx, t, ns))
		checkNewImageRolledOut(t, run, 6)
		checkCleanedUp(ctx, t, client, ns)
	})
}

// checkNewImageRolledOut: the scenario's setImage ran and the deployment
// ended with all its replicas updated and available.
func checkNewImageRolledOut(t *testing.T, run *simRun, replicas float64) {
	t.Helper()
	var action, deployment map[string]any
	for _, l := range run.trace() {
		switch l["type"] {
		case "action":
			action = l
		case "deployment":
			deployment = l
		}
	}
	if action == nil || action["action"] != "setImage" || action["result"] != "ok" {
		t.Errorf("action line %v, want setImage ok", action)
	}
	if deployment == nil || deployment["updated"] != replicas || deployment["available"] != replicas || deployment["replicas"] != replicas {
		t.Errorf("last deployment line %v, want %v replicas, all updated and available", deployment, replicas)
	}
}

// simulationNamespaces are the namespaces live simulations have made.
func simulationNamespaces(ctx context.Context, t *testing.T, cp *controlplane.ControlPlane) map[string]bool {
	t.Helper()
	client, err := cp.AdminClient()
	if err != nil {
		t.Fatal(err)
	}
	list, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: live.LabelSimulation})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, ns := range list.Items {
		out[ns.Name] = true
	}
	return out
}

// finishedRun runs a scenario to its end and checks that every scripted
// action ran and the run ended on its own.
func finishedRun(ctx context.Context, t *testing.T, bin, kubeconfig, file string) *simRun {
	t.Helper()
	run := startSim(t, bin, kubeconfig, "-f", file)
	if code := run.wait(ctx, t); code != 0 {
		t.Fatalf("exit code %d, stderr: %s", code, run.stderr.String())
	}
	if reason := endReason(t, run); reason != "quiescent" {
		t.Errorf("end reason %q, want quiescent", reason)
	}
	for _, l := range run.trace() {
		if l["type"] == "action" && l["result"] != "ok" {
			t.Errorf("action line %v, want ok", l)
		}
	}
	return run
}

// lastNodeLine is the trace's last line about a node, by its scenario name.
func lastNodeLine(run *simRun, name string) map[string]any {
	var last map[string]any
	for _, l := range run.trace() {
		if l["type"] == "node" && l["name"] == name {
			last = l
		}
	}
	return last
}

// checkNodeEvent: the trace shows an event about a hollow node under its
// scenario name, with the scenario's names in the message.
func checkNodeEvent(t *testing.T, run *simRun, node, reason, message string) {
	t.Helper()
	for _, l := range run.trace() {
		if l["type"] == "event" && l["object"] == "node/"+node && l["reason"] == reason && l["message"] == message {
			return
		}
	}
	t.Errorf("no %s event about node/%s saying %q in the trace:\n%s", reason, node, message, run.text())
}
