package main

import (
	"path/filepath"
	"strings"
	"testing"

	"rollscope/kube/recording"
)

// rowOf is the fleet row of cluster on screen, "" when none.
func rowOf(screen, cluster string) string {
	for _, r := range fleetRows(screen) {
		if strings.Contains(r, " "+cluster+" ") {
			return r
		}
	}
	return ""
}

// The built-in regions through the real binary, wide: one fleet over the
// scenario's three clusters with a CLUSTER column and per-cluster counts;
// g groups checkout's three rows into one saying each cluster's state; an
// action from us-east's row (found with ctx:us-east) names its cluster in
// the confirmation and pauses checkout there alone.
func TestConsoleRegionsShowsOneFleetOverItsClusters(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 200, 50, "--scenario", "regions", "--speed", "5")
	s := c.waitFor("ap-south 1 workload")
	wantAll(t, s, "the fleet", "ctx eu-west,us-east,ap-south", "CLUSTER", "eu-west 1 workload │ us-east 1 workload │ ap-south")
	if rows := fleetRows(s); len(rows) != 3 {
		t.Fatalf("want checkout's three rows:\n%s", s)
	}
	// Grouped: one row, and under it each cluster's revision, image and
	// state — v2 in eu-west, v1 in us-east (it rolls at 45s), failing in
	// ap-south.
	c.keys("g")
	s = c.WaitUntil("the three clusters' states", func(s string) bool {
		return strings.Contains(s, "ap-south rev 2 checkout:v2 crash-looping") &&
			strings.Contains(s, "eu-west rev 2 checkout:v2 complete") && strings.Contains(s, "us-east rev 1 checkout:v1 complete")
	})
	if rows := fleetRows(s); len(rows) != 1 || !strings.Contains(rows[0], "▸ ap-south +2 deploy checkout") || !strings.Contains(rows[0], "↻ crash-looping") {
		t.Fatalf("g does not group checkout's rows into one, the failing cluster's first:\n%s", s)
	}
	c.keys("g")
	c.WaitUntil("the rows back", func(s string) bool { return len(fleetRows(s)) == 3 })

	c.keys("/", "ctx:us-east", "Enter")
	c.WaitUntil("us-east's row alone", func(s string) bool {
		rows := fleetRows(s)
		return len(rows) == 1 && strings.Contains(rows[0], "us-east")
	})
	c.keys("p")
	c.waitFor("kubectl --context us-east -n default rollout pause deployment/checkout")
	c.keys("y")
	c.WaitUntil("us-east paused", func(s string) bool { return strings.Contains(rowOf(s, "us-east"), "‖ paused") })
	// Escape once the confirmation has gone, or it is the dialog's, not
	// the filter's.
	c.keys("Escape") // the filter: every cluster's row again
	s = c.WaitUntil("every cluster's row again", func(s string) bool { return len(fleetRows(s)) == 3 })
	if !strings.Contains(rowOf(s, "us-east"), "‖ paused") || strings.Contains(rowOf(s, "eu-west"), "paused") || strings.Contains(rowOf(s, "ap-south"), "paused") {
		t.Errorf("the pause reached another cluster:\n%s", s)
	}
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// At 80×24: the CLUSTER column, the grouped row and a confirmation naming
// the cluster still fit.
func TestConsoleRegionsAt80x24(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 80, 24, "--scenario", "regions", "--speed", "10")
	s := c.waitFor("ap-south default deploy/checkout: new pods crash-loop")
	wantAll(t, s, "the fleet", "CLUSTER", "ap-south 1 workload, 1 failing")
	if !strings.Contains(rowOf(s, "ap-south"), "crash-looping") {
		t.Errorf("ap-south's row is not crash-looping:\n%s", s)
	}
	c.keys("g")
	c.waitFor("▸ ap-south +2 deploy checkout")
	c.keys("g", "u")
	c.waitFor("undo to which revision?")
	c.keys("Enter") // revision 1
	s = c.waitFor("--context ap-south")
	wantAll(t, s, "the undo confirmation", "kubectl --context ap-south -n default rollout undo deployment/checkout")
	c.keys("Escape")
	c.waitFor("CLUSTER")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// --plain on regions: each line names its cluster, and it exits 1 with
// the line of the one region that failed.
func TestPlainRegionsNamesEachClusterAndExits1(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "--scenario", "regions", "--plain", "--speed", "50")
	if r.code != 1 || !strings.Contains(r.stderr, `"ap-south": deployment "checkout" exceeded its progress deadline`) || strings.Contains(r.stderr, "eu-west\":") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, c := range []string{"eu-west", "us-east", "ap-south"} {
		if !strings.Contains(r.stdout, "s "+c+"] deployment/checkout") {
			t.Errorf("no line of %s:\n%s", c, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, `s eu-west] deployment/checkout 6 desired · 6 total · 6 updated · 6 available — deployment "checkout" successfully rolled out`) {
		t.Errorf("eu-west's rollout does not finish:\n%s", r.stdout)
	}
}

// simulate on regions: one trace of the three, each line naming its
// cluster; bad input about clusters is one line at its place.
func TestSimulateRegionsAndClustersBadInput(t *testing.T) {
	r := rollscope(t, "simulate", "-f", "regions", "--format", "table")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "CLUSTER   TIME") || !strings.Contains(r.stdout, "\nap-south  15.000    action  deployment/checkout") {
		t.Fatalf("exit %d, trace:\n%.2000s", r.code, r.stdout)
	}
	r = rollscope(t, "simulate", "-f", "regions")
	if !strings.Contains(r.stdout, `{"t":45.0,"cluster":"us-east","type":"action"`) {
		t.Errorf("the JSONL trace does not name the cluster:\n%.2000s", r.stdout)
	}
	r = rollscope(t, "--scenario", "regions", "deploy/chekout")
	if r.code != 1 || !strings.Contains(r.stderr, `deployments.apps "chekout" not found in namespace "default" (there: checkout)`) {
		t.Errorf("a deployment no cluster has: exit %d, %s", r.code, r.stderr)
	}
	r = rollscope(t, "--scenario", "regions", "-n", "billing", "--plain")
	if r.code != 2 || r.stderr != `rollscope: -n billing: no cluster of scenario "regions" has namespace "billing" (theirs: default) — leave -n out, or add objects there to the scenario`+"\n" {
		t.Errorf("--plain -n of a namespace no cluster has: exit %d, %q", r.code, r.stderr)
	}
	r = rollscope(t, "--scenario", "regions", "--context", "prod")
	if r.code != 2 || !strings.HasPrefix(r.stderr, `rollscope: regions.yaml:19: scenario "regions" runs its own clusters (eu-west, us-east, ap-south)`) {
		t.Errorf("--context on regions: exit %d, %s", r.code, r.stderr)
	}
}

// In the built-in regions, :ctx switches among the scenario's clusters as
// among a kubeconfig's contexts — one, several, all — and refuses one it
// lacks, naming those there are; -n is every cluster's namespace.
func TestCtxSwitchesAmongAScenariosClusters(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 200, 50, "--scenario", "regions", "--speed", "5", "-n", "billing")
	s := c.waitFor("ctx eu-west,us-east,ap-south")
	wantAll(t, s, "the fleet of -n billing", "ns billing · 0 workloads", "eu-west 0 workloads │ us-east 0 workloads │ ap-south 0 workloads")
	c.keys(":", "ns default", "Enter")
	c.WaitUntil("checkout's three rows in default", func(s string) bool { return len(fleetRows(s)) == 3 })

	c.keys(":", "ctx us-east", "Enter")
	// One cluster with one workload opens on it, as a one-cluster
	// scenario does.
	c.waitFor("ctx us-east  ns default  deploy checkout")
	c.keys(":", "ctx eu-west,ap-south", "Enter")
	s = c.WaitUntil("eu-west and ap-south", func(s string) bool {
		return strings.Contains(s, "ctx eu-west,ap-south") && len(fleetRows(s)) == 2
	})
	if rowOf(s, "us-east") != "" {
		t.Errorf("us-east's row is still shown after :ctx eu-west,ap-south:\n%s", s)
	}
	c.keys(":", "ctx nope", "Enter")
	c.waitFor("no context nope in the scenario — there are eu-west, us-east, ap-south")
	c.keys(":", "ctx all", "Enter")
	c.WaitUntil("every cluster again", func(s string) bool {
		return strings.Contains(s, "ctx eu-west,us-east,ap-south") && len(fleetRows(s)) == 3
	})
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// --record-to on regions records its first cluster, as on a kubeconfig's
// first context — the console's and --plain's alike: it recorded nothing
// before (an empty file).
func TestRegionsRecordTheirFirstCluster(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	dir := t.TempDir()
	console, plain := filepath.Join(dir, "console.rec"), filepath.Join(dir, "plain.rec")
	c := startConsole(t, 160, 40, "--scenario", "regions", "--speed", "10", "--record-to", console)
	c.waitFor("ap-south 1 workload, 1 failing")
	c.keys("Space") // a pause is marked where the clock stopped
	c.waitFor("CLOCK PAUSED")
	c.keys("q")
	c.waitFor("rollscope exited 0")
	if r := rollscope(t, "--scenario", "regions", "--plain", "--speed", "50", "--record-to", plain); r.code != 1 {
		t.Fatalf("--plain ended with exit %d: %s", r.code, r.stderr)
	}
	for _, file := range []string{console, plain} {
		tape, err := recording.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		if tape.Header.Context != "eu-west" || tape.Header.Namespace != "default" {
			t.Errorf("%s records %s/%s, want eu-west/default", filepath.Base(file), tape.Header.Context, tape.Header.Namespace)
		}
		md := rollscope(t, "replay", file, "--format", "markdown")
		wantAll(t, md.stdout, filepath.Base(file)+"'s timeline", "# Recording of eu-west", "## deploy/checkout in default", "Created pod: checkout-")
		if file == console && len(tape.Pauses) != 1 {
			t.Errorf("the console's recording marks %d pauses, want 1", len(tape.Pauses))
		}
	}
}
