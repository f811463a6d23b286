package livetruth

import "testing"

// TestConsoleTellsTheTruthOnALiveCluster runs every flow on one control
// plane: those that leave the API server alone side by side, each in its
// own namespace, then the one that freezes it.
func TestConsoleTellsTheTruthOnALiveCluster(t *testing.T) {
	c := startCluster(t)
	t.Run("flows", func(t *testing.T) {
		for name, flow := range map[string]func(*testing.T, *cluster){
			"view-only":   viewOnlyFlow,
			"pending":     pendingFlow,
			"terminating": terminatingFlow,
			"env":         envFlow,
			"deleted":     deletedFlow,
			"plain-exit":  plainExitFlow,
		} {
			t.Run(name, func(t *testing.T) { t.Parallel(); flow(t, c) })
		}
	})
	// Cordons a node for a moment: alone, so that no other flow's pods
	// move meanwhile.
	t.Run("drain-recheck", func(t *testing.T) { drainRecheckFlow(t, c) })
	t.Run("frozen-api-server", func(t *testing.T) { frozenFlow(t, c) })
}
