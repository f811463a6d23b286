package main

import (
	"context"
	"os"
	"os/signal"
	"time"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/internal/embeddedfleet"
)

// loadScenario checks --until and reads the scenario a run will use; both
// failures are bad input.
func loadScenario(nameOrFile string, until time.Duration) (*scenario.Scenario, error) {
	if until < 0 {
		return nil, badInput("--until %v is negative: give a positive duration such as 10m, or 0 for no limit", until)
	}
	sc, err := scenario.Load(nameOrFile)
	if err != nil {
		return nil, usageError{err}
	}
	return sc, nil
}

// interruptible ends ctx on Ctrl-C, so that a run stops cleanly.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt)
}

// startEmbedded boots the scenario's embedded cluster on kube/memapi, the
// one way every command does; a scenario that cannot start is bad input.
func startEmbedded(ctx context.Context, sc *scenario.Scenario, o embedded.Options) (*embedded.Cluster, error) {
	cl, err := embedded.Boot(ctx, sc, embeddedfleet.Backend, o)
	if err != nil {
		return nil, usageError{err}
	}
	return cl, nil
}
