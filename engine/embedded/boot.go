package embedded

import (
	"context"
	"time"

	"rollscope/engine/scenario"
	"rollscope/engine/sim"
)

// Epoch is where the embedded cluster's virtual time starts. Traces and
// --plain's stamps count from it, so it never shows.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// NewBackend builds the API an embedded cluster runs on: clock stamps the
// times the server sets, seed makes generated names and UIDs reproducible.
// engine never imports kube, so the command hands in kube/memapi's.
type NewBackend func(clock *sim.Clock, seed int64) Backend

// Boot starts the scenario's cluster the one way every mode does (the
// console, --plain, its fleet, simulate and rolling-update's rehearsal): a
// virtual clock standing at Epoch, the API newAPI builds on it with the
// run's seed, and Start on both. The clock stays stopped until the caller
// runs it (Cluster.Run, or Clock().SetSpeed and Runner.RunRealtime).
func Boot(ctx context.Context, sc *scenario.Scenario, newAPI NewBackend, o Options) (*Cluster, error) {
	clock := sim.NewClock(Epoch)
	seed := sc.Seed
	if o.Seed != 0 {
		seed = o.Seed
	}
	return Start(ctx, newAPI(clock, seed), clock, sc, o)
}

// Clock is the cluster's virtual clock.
func (c *Cluster) Clock() *sim.Clock { return c.clock }
