package embedded_test

import (
	"os"
	"strings"
	"testing"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
)

// The 150,000-replica rollout (Kubernetes' envelope) is refused only by a
// machine that cannot hold it, in one line saying what was asked, what the
// machine holds and why; a console watching it needs about twice what
// simulate does, which the line counts.
func TestCapacityIsTheMachines(t *testing.T) {
	const file = "../../testdata/scenarios/rollout-150k.yaml"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(file, src)
	if err != nil {
		t.Fatalf("150,000 replicas refused by the scenario's own checks: %v", err)
	}
	for _, headless := range []bool{true, false} {
		if err := embedded.CheckCapacity(sc, 4<<30, headless); err != nil {
			t.Errorf("4 GiB available, headless %v: %v", headless, err)
		}
		if err := embedded.CheckCapacity(sc, 0, headless); err != nil {
			t.Errorf("memory unknown, headless %v: %v", headless, err)
		}
	}
	err = embedded.CheckCapacity(sc, 1<<30, true)
	want := file + `: scenario "rollout-150k" asks for 150000 replicas; this machine can hold about 95325 (1.1 GB of memory available, about 11 KiB a replica) — ask for fewer replicas or run on a machine with more memory`
	if err == nil || err.Error() != want {
		t.Errorf("1 GiB available, simulate:\n got %v\nwant %s", err, want)
	}
	err = embedded.CheckCapacity(sc, 3<<30, false)
	want = file + `: scenario "rollout-150k" asks for 150000 replicas; this machine can hold about 142987 (3.2 GB of memory available, about 22 KiB a replica) — ask for fewer replicas or run on a machine with more memory`
	if err == nil || err.Error() != want {
		t.Errorf("3 GiB available, a console:\n got %v\nwant %s", err, want)
	}
	if err := embedded.CheckCapacity(sc, 3<<30, true); err != nil {
		t.Errorf("3 GiB available, simulate: %v", err)
	}
}

// A scenario's clusters run in one process: their replicas are counted
// together (regions: three clusters of 6).
func TestCapacityCountsEveryCluster(t *testing.T) {
	sc, err := scenario.Load("regions")
	if err != nil {
		t.Fatal(err)
	}
	const perReplica = 22 << 10
	if err := embedded.CheckCapacity(sc, 18*perReplica, false); err != nil {
		t.Errorf("room for 18 replicas: %v", err)
	}
	err = embedded.CheckCapacity(sc, 18*perReplica-1, false)
	if err == nil || !strings.Contains(err.Error(), `scenario "regions" asks in its clusters for 18 replicas; this machine can hold about 17 `) {
		t.Errorf("room for 17 replicas: got %v, want a refusal counting the three clusters' 18", err)
	}
}

// A scale action is asked for as a declared size is: a scenario of 1,000
// replicas that scales to 200,000 a minute in is refused at the start, not
// killed for want of memory half way; scaling down asks for no more.
func TestCapacityCountsScaleActions(t *testing.T) {
	sc := appScenario(t, "", "{at: 60s, scale: {target: deployment/app, replicas: 200000}}",
		"{at: 90s, scale: {target: deployment/app, replicas: 10}}")
	const perReplica = 11 << 10
	if err := embedded.CheckCapacity(sc, 200000*perReplica, true); err != nil {
		t.Errorf("room for 200,000 replicas: %v", err)
	}
	err := embedded.CheckCapacity(sc, 1000*perReplica, true)
	if err == nil || !strings.Contains(err.Error(), `scenario "app" asks for 200000 replicas; this machine can hold about 1000 `) {
		t.Errorf("room for 1,000 replicas: got %v, want a refusal counting the scale to 200,000", err)
	}
}

// A scale the console asks of the embedded cluster, or a forecast rehearses,
// is measured against the memory left now: ten more replicas fit anywhere,
// spec.replicas' most fits nowhere, and the refusal says how much each
// needs.
func TestRoomIsWhatIsLeftNow(t *testing.T) {
	if embedded.MemoryAvailable() == 0 {
		t.Skip("this machine's available memory cannot be read")
	}
	if err := embedded.Room(10); err != nil {
		t.Errorf("10 more replicas: %v", err)
	}
	err := embedded.Room(1<<31 - 1)
	if err == nil || !strings.HasPrefix(err.Error(), "2147483647 more replicas need about 48378.5 GB of memory and this machine has ") ||
		!strings.HasSuffix(err.Error(), "GB available (about 22 KiB a replica)") {
		t.Errorf("2147483647 more replicas: %v", err)
	}
}

// A scripted rollout brings up its surge beside the pods it replaces: at
// maxSurge 100 % a Deployment scaled to 4,000 runs up to 8,000 pods at once,
// 3,000 more than the quarter the per-replica figure holds, and a machine
// that cannot hold them refuses the scenario at the start rather than being
// killed half way through the rollout. Without the rollout 4,000 fit.
func TestCapacityCountsARolloutsSurge(t *testing.T) {
	const strategy = "{type: RollingUpdate, rollingUpdate: {maxSurge: 100%, maxUnavailable: 0}}"
	const scale = "{at: 60s, scale: {target: deployment/app, replicas: 4000}}"
	const perReplica = 11 << 10
	if err := embedded.CheckCapacity(appScenario(t, strategy, scale), 4000*perReplica, true); err != nil {
		t.Errorf("room for 4,000 pods, no rollout: %v", err)
	}
	rolled := appScenario(t, strategy, scale, "{at: 90s, setImage: {target: deployment/app, container: app, image: example.com/app:v2}}")
	if err := embedded.CheckCapacity(rolled, 7000*perReplica, true); err != nil {
		t.Errorf("room for 7,000 pods: %v", err)
	}
	err := embedded.CheckCapacity(rolled, 6999*perReplica, true)
	want := `app.yaml: scenario "app" asks for 4000 replicas and 3000 more pods its rollouts bring up at once; this machine can hold about 6999 `
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("room for 6,999 pods:\n got %v\nwant %s…", err, want)
	}
}

// appScenario is a scenario of one Deployment, app, of 1,000 replicas on
// ten roomy nodes, with strategy (its spec.strategy, or "" for the
// default) and actions.
func appScenario(t *testing.T, strategy string, actions ...string) *scenario.Scenario {
	t.Helper()
	if strategy != "" {
		strategy = "    strategy: " + strategy + "\n"
	}
	src := `name: app
nodeGroups:
  - {name: nodes, size: 10, capacity: {pods: 110, cpu: "32", memory: 128Gi}}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: app}
  spec:
    replicas: 1000
` + strategy + `    selector: {matchLabels: {app: app}}
    template:
      metadata: {labels: {app: app}}
      spec:
        containers: [{name: app, image: example.com/app:v1}]
actions:
`
	for _, a := range actions {
		src += "  - " + a + "\n"
	}
	sc, err := scenario.Parse("app.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
