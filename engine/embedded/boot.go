package embedded

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"rollscope/engine/play"
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
	if len(sc.Clusters) > 0 {
		// Only the console, --plain and simulate run several (BootClusters).
		return nil, &scenario.Error{File: sc.File, Line: sc.ClustersLine, Message: fmt.Sprintf(
			"scenario %q runs several clusters (%s); this command rehearses on one — use a scenario without clusters:",
			sc.Name, strings.Join(sc.ClusterNames(), ", "))}
	}
	if err := CheckCapacity(sc, MemoryAvailable(), o.Headless); err != nil {
		return nil, err
	}
	clock := sim.NewClock(Epoch)
	seed := sc.Seed
	if o.Seed != 0 {
		seed = o.Seed
	}
	return Start(ctx, newAPI(clock, seed), clock, sc, o)
}

// Clock is the cluster's virtual clock.
func (c *Cluster) Clock() *sim.Clock { return c.clock }

// BootClusters starts each of a scenario's clusters (scenario.Clusters)
// as Boot starts one, each on its own API, all on one virtual clock: the
// clusters are rehearsed side by side, a minute in one a minute in all.
// o gives each cluster's options, by name. The capacity check counts the
// replicas of every cluster: they share this process's memory.
func BootClusters(ctx context.Context, sc *scenario.Scenario, newAPI NewBackend, o func(cluster string) Options) (Clusters, error) {
	opts := make([]Options, len(sc.Clusters))
	headless := true
	for i, c := range sc.Clusters {
		opts[i] = o(c.Cluster)
		headless = headless && opts[i].Headless
	}
	if err := CheckCapacity(sc, MemoryAvailable(), headless); err != nil {
		return nil, err
	}
	clock := sim.NewClock(Epoch)
	var out Clusters
	for i, c := range sc.Clusters {
		co := opts[i]
		seed := c.Seed
		if co.Seed != 0 {
			seed = co.Seed
		}
		cl, err := Start(ctx, newAPI(clock, seed), clock, c, co)
		if err != nil {
			out.Close()
			return nil, fmt.Errorf("cluster %s: %w", c.Cluster, err)
		}
		out = append(out, cl)
	}
	return out, nil
}

// Clusters are a scenario's clusters on one clock (BootClusters).
type Clusters []*Cluster

// Clock is their one virtual clock.
func (cs Clusters) Clock() *sim.Clock { return cs[0].clock }

// Finished reports whether every cluster has finished.
func (cs Clusters) Finished() bool {
	for _, c := range cs {
		if !c.Finished() {
			return false
		}
	}
	return true
}

// Run runs them all at full speed as Cluster.Run runs one; with
// Options.ExitStatus, an error naming each cluster where a rollout failed
// or had not finished.
func (cs Clusters) Run(ctx context.Context, until time.Duration) (string, error) {
	rs := make([]*sim.Runner, len(cs))
	for i, c := range cs {
		rs[i] = c.Runner
	}
	reason, err := sim.RunAll(ctx, rs, sim.RunOptions{Until: until, Finished: cs.Finished})
	if err != nil || reason == sim.EndCanceled {
		return reason, err
	}
	var errs []error
	for _, c := range cs {
		if c.exitStatus {
			if err := play.RolloutsFinished(c.Runner.Listers()); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", c.Scenario.Cluster, err))
			}
		}
	}
	return reason, errors.Join(errs...)
}

// RunRealtime runs each cluster in real time on their clock until ctx ends.
func (cs Clusters) RunRealtime(ctx context.Context) {
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Go(func() { c.Runner.RunRealtime(ctx) })
	}
	wg.Wait()
}

// Poke wakes every cluster's realtime run.
func (cs Clusters) Poke() {
	for _, c := range cs {
		c.Runner.Poke()
	}
}

// Close stops every cluster's runner.
func (cs Clusters) Close() {
	for _, c := range cs {
		c.Runner.Close()
	}
}
