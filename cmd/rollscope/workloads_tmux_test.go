package main

import (
	"strings"
	"testing"
)

// The StatefulSet view through the real binary: opened from the picker
// (:sts db) on the stateful scenario's partitioned canary, the ordinal strip
// with the partition marked, and an undo to the revision chosen in the
// history, confirmed with y.
func TestConsoleUndoesAStatefulSetToAChosenRevision(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 42, "--scenario", "stateful", "--speed", "20")
	// db is the scenario's only workload: the console opens on it; the
	// picker opens it again.
	c.waitFor("statefulset/db  replicas 5")
	c.keys(":", "s", "t", "s", " ", "d", "b", "Enter")
	c.waitFor("statefulset/db  replicas 5")
	// At 61s of virtual time the new image goes to the ordinals from the
	// partition (3) up: the strip marks them, and the history lists both
	// revisions with the cursor on the older one, named as the revisions
	// line names them: the ordinals below the partition run the current one.
	s := c.waitFor("partitioned roll out complete: 2 new pods have been updated")
	wantAll(t, s, "the StatefulSet view", "partition 3", "┃", "o o o  u u", "revisions current db-", "▸ 1    db=registry.example.com/shop/db:15.4  (current)",
		"db:15.5  (update)",
		// The diff reads from the template's revision, as a Deployment's does.
		"update → revision 1 (- goes away, + an undo brings back):", "-       image: registry.example.com/shop/db:15.5", "+       image: registry.example.com/shop/db:15.4")
	c.keys("u")
	s = c.waitFor("undo to revision 1 of statefulset/db")
	if !strings.Contains(s, "kubectl -n default rollout undo statefulset/db --to-revision=1") {
		t.Errorf("the confirmation does not show kubectl's command:\n%s", s)
	}
	// The forecast rehearses the undo on a copy: the ordinals already
	// updated go back one at a time, the highest first (how many depends on
	// how far the scripted partition steps have gone by now).
	s = c.waitFor("one at a time: db-4")
	if !strings.Contains(s, "forecast: replaces ") || !strings.Contains(s, "never fewer than 4 available") {
		t.Errorf("the forecast lacks the lowest availability:\n%s", s)
	}
	c.keys("y")
	c.waitFor("undo to revision 1: back on revision 1's template, now revision 3")
	// kubectl's rollback brings revision 1's template back as revision 3,
	// and the pods from the partition up are replaced with it.
	// Once every ordinal runs it, it is the current revision.
	c.waitFor("3    db=registry.example.com/shop/db:15.4  (current)")
	// esc goes back to the fleet.
	c.keys("Escape")
	c.waitFor("ns default · 1 workload")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// The DaemonSet view through the real binary: opened as ds/NAME, the nodes
// with their daemon pods, and a restart confirmed with y that rolls them
// within maxSurge.
func TestConsoleRestartsADaemonSet(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 140, 42, "--scenario", "daemons", "--speed", "2", "ds/node-agent")
	s := c.waitFor("daemonset/node-agent  desired 5  updated 5  available 5")
	wantAll(t, s, "the DaemonSet view", `daemon set "node-agent" successfully rolled out`, "maxSurge 1", "nodes-0", "updated", "▸ 1    agent=registry.example.com/infra/node-agent:2.1  (current)")
	c.keys("R")
	s = c.waitFor("restart of daemonset/node-agent")
	if !strings.Contains(s, "kubectl -n default rollout restart daemonset/node-agent") {
		t.Errorf("the confirmation does not show kubectl's command:\n%s", s)
	}
	// The forecast rehearses the restart on a copy: every node's daemon
	// pod, in the controller's node order, never more than maxSurge extra.
	s = c.waitFor("forecast: replaces the daemon pods on 5 nodes one at a time: nodes-")
	if !strings.Contains(s, "at most 6 pods") {
		t.Errorf("the forecast lacks the peak within maxSurge:\n%s", s)
	}
	c.keys("y")
	c.waitFor("restart: ok")
	// The restart is a new revision whose template carries restartedAt;
	// its pods go node by node, one surging at a time.
	c.waitFor("kubectl.kubernetes.io/restartedAt")
	c.waitFor("surging")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

func TestConsoleRefusesWorkloadArgumentsItCannotFollow(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"sts/", `"sts/" names no object: write sts/NAME`},
		{"job/x", "DaemonSets (ds/NAME) and Rollouts (ro/NAME)"},
		{"ds/node-agent", "daemonset/node-agent: --plain follows deployments"},
	} {
		r := rollscope(t, "--plain", "--scenario", "daemons", c.arg)
		if r.code == 0 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant one line with %q", c.arg, r.code, r.stderr, c.want)
		}
	}
}

// A scale the embedded cluster could not hold is refused under the field,
// through the real binary: the console was killed for want of memory
// instead, its forecast rehearsing fifty million pods while it showed
// "working out". A count it can hold goes on to its confirmation.
func TestConsoleRefusesAScaleTheEmbeddedClusterCannotHold(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 42, "--scenario", "stateful", "--speed", "2")
	c.waitFor("statefulset/db  replicas 5")
	c.keys("s")
	c.waitFor("replicas (now 5)")
	c.keys("5", "0", "0", "0", "0", "0", "0", "0", "Enter")
	s := c.waitFor("ask for fewer")
	wantAll(t, s, "the refusal", "cannot scale statefulset/db from 5 to 50000000 replicas in the embedded cluster, which runs in this process: 49999995 more replicas need about 1126.4 GB")
	c.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "6", "Enter")
	s = c.waitFor("scale to 6 of statefulset/db")
	if strings.Contains(s, "ask for fewer") {
		t.Errorf("the refusal stayed after the count was mended:\n%s", s)
	}
	c.keys("n")
	c.WaitUntil("the confirmation closed", func(s string) bool { return !strings.Contains(s, "scale to 6 of statefulset/db") })
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
