package console

import "testing"

// TestConsoleOnALiveCluster runs every flow on one control plane: the
// flows that leave the API server alone side by side, each in its own
// namespace, then the one that stops it.
func TestConsoleOnALiveCluster(t *testing.T) {
	c := startCluster(t)
	t.Run("flows", func(t *testing.T) {
		for name, flow := range map[string]func(*testing.T, *cluster){
			"watch":    watchFlow,
			"canary":   canaryFlow,
			"rollback": rollbackFlow,
			"viewer":   viewerFlow,
		} {
			t.Run(name, func(t *testing.T) { t.Parallel(); flow(t, c) })
		}
	})
	t.Run("api-server-restart", func(t *testing.T) { faultFlow(t, c) })
}
