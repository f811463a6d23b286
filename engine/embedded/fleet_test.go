package embedded_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/embedded"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/cluster"
)

// fleetAt is the fleet as the console would show it at each of the virtual
// times: the built-in fleet scenario run to that time, everything the
// console watches fed to a cluster.Cluster, and its Fleet of all namespaces.
func fleetAt(t *testing.T, times ...time.Duration) [][]cluster.FleetRow {
	t.Helper()
	sc := load(t, "fleet")
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	ctx := context.Background()
	cl, err := embedded.Start(ctx, api, clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]cluster.FleetRow
	for _, at := range times {
		if _, err := cl.Run(ctx, at); err != nil {
			t.Fatal(err)
		}
		c := cluster.NewCluster()
		c.Apply(cluster.Batch{At: clock.Now(), Objects: everything(t, cl), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
		out = append(out, c.Fleet("", clock.Now()))
	}
	return out
}

// everything is what the console's watch holds, read from the API.
func everything(t *testing.T, cl *embedded.Cluster) []runtime.Object {
	t.Helper()
	ctx, all, c := context.Background(), metav1.ListOptions{}, cl.Client
	var out []runtime.Object
	add := func(err error, items int, at func(int) runtime.Object) {
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < items; i++ {
			out = append(out, at(i))
		}
	}
	nodes, err := c.CoreV1().Nodes().List(ctx, all)
	add(err, len(nodes.Items), func(i int) runtime.Object { return &nodes.Items[i] })
	ds, err := c.AppsV1().Deployments("").List(ctx, all)
	add(err, len(ds.Items), func(i int) runtime.Object { return &ds.Items[i] })
	rss, err := c.AppsV1().ReplicaSets("").List(ctx, all)
	add(err, len(rss.Items), func(i int) runtime.Object { return &rss.Items[i] })
	rcs, err := c.CoreV1().ReplicationControllers("").List(ctx, all)
	add(err, len(rcs.Items), func(i int) runtime.Object { return &rcs.Items[i] })
	sets, err := c.AppsV1().StatefulSets("").List(ctx, all)
	add(err, len(sets.Items), func(i int) runtime.Object { return &sets.Items[i] })
	daemons, err := c.AppsV1().DaemonSets("").List(ctx, all)
	add(err, len(daemons.Items), func(i int) runtime.Object { return &daemons.Items[i] })
	revs, err := c.AppsV1().ControllerRevisions("").List(ctx, all)
	add(err, len(revs.Items), func(i int) runtime.Object { return &revs.Items[i] })
	pods, err := c.CoreV1().Pods("").List(ctx, all)
	add(err, len(pods.Items), func(i int) runtime.Object { return &pods.Items[i] })
	events, err := c.CoreV1().Events("").List(ctx, all)
	add(err, len(events.Items), func(i int) runtime.Object { return &events.Items[i] })
	return out
}

func TestFleetKeepsTheRolloutInvariants(t *testing.T) {
	r := startRun(t, load(t, "fleet"), 0, withFailingPods)
	r.requireNoViolations()
	if r.end != "quiescent" {
		t.Fatalf("run ended %q, want quiescent", r.end)
	}
	for _, a := range r.actions {
		if !strings.HasSuffix(a, ": ok") {
			t.Errorf("scripted action did not go through: %s", a)
		}
	}
}

// The fleet scenario shows every rollout state at one moment of its first
// minute, each on the workload its leading comment names.
func TestFleetShowsEveryStateInTheFirstMinute(t *testing.T) {
	want := map[cluster.FleetState][]string{
		cluster.FleetFailed:       {"billing/deploy/ledger"},
		cluster.FleetStuck:        {"search/deploy/indexer"},
		cluster.FleetCrashLooping: {"shop/deploy/checkout"},
		cluster.FleetPaused:       {"search/deploy/query"},
		cluster.FleetCanary:       {"shop/deploy/frontend"},
		cluster.FleetRolling:      {"search/deploy/suggest", "platform/deploy/metrics-gateway", "billing/deploy/payments"},
		cluster.FleetNodeRoll:     {"platform/deploy/batch-runner", "platform/deploy/report-builder"},
		cluster.FleetComplete:     {"shop/deploy/wishlist"},
	}
	var times []time.Duration
	for s := 30; s <= 60; s++ {
		times = append(times, time.Duration(s)*time.Second)
	}
	var seen []string
	for i, rows := range fleetAt(t, times...) {
		missing := missingStates(rows, want)
		if len(missing) == 0 {
			t.Logf("every state at %v", times[i])
			return
		}
		seen = append(seen, fmt.Sprintf("%v: missing %s", times[i], strings.Join(missing, ", ")))
	}
	t.Errorf("no moment from 30s to 60s shows every state on its workload:\n%s", strings.Join(seen, "\n"))
}

// missingStates says which wanted states no row of its workloads is in.
func missingStates(rows []cluster.FleetRow, want map[cluster.FleetState][]string) []string {
	var missing []string
	for _, st := range cluster.FleetStates() {
		found := false
		for _, r := range rows {
			if r.State == st && slices.Contains(want[st], r.Namespace+"/"+r.Ref()) {
				found = true
			}
		}
		if !found {
			missing = append(missing, st.String())
		}
	}
	return missing
}
