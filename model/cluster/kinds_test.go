package cluster

import (
	"testing"

	"rollscope/model/kind"
)

// The store keeps every kind the registry knows: each needs its file here
// to give it a fleet row, or its workloads would be kept and never shown.
func TestEveryWorkloadKindHasAFleetRow(t *testing.T) {
	for _, e := range kind.All() {
		if kinds[e.Kind].row == nil {
			t.Errorf("%s has no fleet row: its file in model/cluster adds one to kinds", e.Kind)
		}
	}
}
