package embedded_test

import (
	"os"
	"testing"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
)

// The 150,000-replica rollout (Kubernetes' envelope) is refused only by a
// machine that cannot hold it, in one line saying what was asked, what the
// machine holds and why.
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
	if err := embedded.CheckCapacity(sc, 4<<30); err != nil {
		t.Errorf("4 GiB available: %v", err)
	}
	if err := embedded.CheckCapacity(sc, 0); err != nil {
		t.Errorf("memory unknown: %v", err)
	}
	err = embedded.CheckCapacity(sc, 1<<30)
	want := file + `: scenario "rollout-150k" declares 150000 replicas; this machine can hold about 95325 (1.1 GB of memory available, about 11 KiB a replica) — declare fewer replicas or run on a machine with more memory`
	if err == nil || err.Error() != want {
		t.Errorf("1 GiB available:\n got %v\nwant %s", err, want)
	}
}
