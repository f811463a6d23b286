package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"rollscope/internal/rolloutfixture"
)

// A scenario file declares an Argo Rollout beside a Deployment: the
// embedded cluster serves and runs it (its first ReplicaSet at revision 1,
// all 4 pods asked for) and the console's fleet lists it, watched as on a
// live cluster with Argo's CRDs and controller.
func TestConsoleListsAScenariosRollout(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	f := filepath.Join(t.TempDir(), "argo.yaml")
	scenario := `objects: |
` + rolloutfixture.Rollout(4, rolloutfixture.Canary) + `  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "shop/web:v1"}]}
`
	if err := os.WriteFile(f, []byte(scenario), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startConsole(t, 140, 30, "--scenario", f)
	c.waitFor("ns default · 2 workloads")
	// Argo's first sync records the steps before the initial deploy makes
	// the pods: the row counts its four updated pods once they are made.
	made := regexp.MustCompile(`ro +checkout .* 4/[0-4]/4 `)
	s := c.WaitUntil("the Rollout's four pods made", made.MatchString)
	wantAll(t, s, "the fleet", "shop/checkout:v1", "deploy web")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// The embedded cluster runs a Rollout's canary as Argo's controller does:
// on its page (the scenario's one workload), P promotes it past its pause
// (as `kubectl argo rollouts promote` would), and the canary moves on to
// its next pause.
func TestPromotingAnEmbeddedRolloutMovesItsStep(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	f := filepath.Join(t.TempDir(), "argo.yaml")
	scenario := `namespace: shop
nodeGroups:
  - {name: nodes, role: Node, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
images:
  - {match: "*", pull: 1s, start: 1s, ready: 2s, stop: 2s}
objects: |
` + rolloutfixture.Rollout(4, `{canary: {steps: [{setWeight: 25}, {pause: {}}, {setWeight: 75}, {pause: {}}]}}`) + `actions:
  - {at: 10s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}
`
	if err := os.WriteFile(f, []byte(scenario), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startConsole(t, 160, 30, "--scenario", f, "--speed", "20")
	c.waitFor("step 2/4 · pause (until promoted)")
	c.keys("P")
	c.waitFor("y send")
	c.keys("y")
	s := c.waitFor("step 4/4 · pause (until promoted)")
	wantAll(t, s, "the promoted canary", "✓  3 setWeight 75", "3/3")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// The argo-canary built-in: the fleet shows its Rollout waiting at the
// indefinite pause; P on the fleet row asks with the forecast rehearsed by
// the embedded Argo controller (the rest of the steps, to every pod on
// v2), and y sends it: the Rollout goes on to Healthy.
func TestArgoCanaryPromotedFromTheFleetWithItsForecast(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 40, "--scenario", "argo-canary", "--speed", "20")
	// The scenario's one workload opens on its page; Esc is the fleet.
	c.waitFor("step 4/6 · pause (until promoted)")
	c.keys("Escape")
	s := c.waitFor("awaiting promo")
	wantAll(t, s, "the fleet", "ro     checkout", "shop/checkout:v2")
	c.keys("P")
	s = c.waitFor("kubectl argo rollouts promote checkout")
	t.Logf("P on the fleet row:\n%s", s)
	s = c.waitFor("scaling steps")
	t.Logf("the forecast:\n%s", s)
	wantAll(t, s, "the forecast", "at most 13 pods, never fewer than 10 available", "about ")
	c.keys("y")
	s = c.waitFor("Healthy")
	t.Logf("promoted:\n%s", s)
	c.keys("q")
	c.waitFor("rollscope exited 0")
}

// Mid-rollout of 1,000 replicas on a 120×28 terminal both ReplicaSets' rows
// show at once, each over as much of its pod grid as fits, the cut one
// counting the pods it leaves out: the new ReplicaSet's grid had pushed the
// old one's row out of the pane. The rollout is paused ten seconds in, so
// that the moment lasts however slowly a loaded machine draws it (paused,
// the controller fills the surge: 1,007 new pods and 243 old).
func TestConsoleShowsBothReplicaSetsBesideBigGrids(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	rollout, err := os.ReadFile(whyScenario(t, "rollout-1k"))
	if err != nil {
		t.Fatal(err)
	}
	paused := writeFile(t, "rollout-1k-paused.yaml", string(rollout)+"  - {at: 70s, pause: deployment/app}\n")
	c := startConsole(t, 120, 28, "--scenario", paused, "--speed", "20")
	c.waitFor("rev 2")
	newRow := regexp.MustCompile(`(?m)^▸\s+2 new\s`)
	oldRow := regexp.MustCompile(`(?m)^\s+1 old\s`)
	more := regexp.MustCompile(`… \d+ more pods \(→ walks them all\)`)
	s := c.WaitUntil("both ReplicaSets' rows beside a cut grid", func(s string) bool {
		return newRow.MatchString(s) && oldRow.MatchString(s) && more.MatchString(s)
	})
	t.Logf("mid-rollout:\n%s", s)
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
