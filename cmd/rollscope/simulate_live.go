package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/live"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
)

// cleanupTimeout bounds the cleanup of a live simulate: deleting the
// namespace, waiting for it to go, deleting the hollow nodes.
const cleanupTimeout = 2 * time.Minute

// runLiveSimulate plays the scenario on the cluster the kubectl flags name,
// in real time, writes the trace as the embedded run does, and removes what
// it made on the way out, Ctrl-C and errors included.
func runLiveSimulate(ctx context.Context, f *simulateFlags, sc *scenario.Scenario) error {
	ctx, stop := stopOnSignals(ctx)
	defer stop()
	conn, err := f.conn.Connect(ctx)
	if err != nil {
		return err
	}
	// Real time is slow enough to write each line as it happens, which is
	// what someone (or a test) following the trace needs.
	held := trace.NewHeld(os.Stdout)
	tw := trace.New(held, trace.Format(f.format), epoch, sc.NodeGroups)
	tw.Script(sc.Actions)
	s := &live.Simulation{
		Scenario:    sc,
		HollowNodes: !f.noHollowNodes, ExitStatus: f.exitStatus, Seed: f.seed,
		Until: f.until,
		Epoch: epoch,
		Observe: func(at time.Time, ev watch.Event) {
			tw.Observe(at, ev)
			_ = tw.Flush()
		},
		OnAction: func(at time.Time, kind, target, result string) {
			tw.Action(at, kind, target, result)
			_ = tw.Flush()
		},
		Progress: func(line string) { fmt.Fprintln(os.Stderr, "rollscope: "+line) },
	}
	client, err := conn.WithRate(live.SimulationQPS, live.SimulationBurst)
	if err != nil {
		return err
	}
	run, err := s.Start(ctx, client)
	if err != nil {
		if ctx.Err() != nil {
			return errors.Join(errors.New("simulate interrupted while it was setting up"), cleanUp(run))
		}
		return errors.Join(live.SetupError(conn.Context, err), cleanUp(run))
	}
	if err := run.Begin(ctx); err != nil {
		// Nothing has been written: the trace starts with the objects.
		return errors.Join(usageError{err}, cleanUp(run))
	}
	if err := held.Release(); err != nil {
		return errors.Join(fmt.Errorf("writing the trace: %w", err), cleanUp(run))
	}
	reason, at, err := run.Play(ctx)
	tw.End(at, reason)
	werr := tw.Flush()
	if werr != nil {
		werr = fmt.Errorf("writing the trace: %w", werr)
	}
	cerr := cleanUp(run)
	if reason == sim.EndCanceled {
		err = fmt.Errorf("simulate interrupted; namespace %s removed", run.Namespace)
		if cerr != nil {
			err, cerr = fmt.Errorf("simulate interrupted; %w", cerr), nil
		}
	}
	return errors.Join(err, werr, cerr)
}

// cleanUp removes the run's namespace and hollow nodes, with its own
// deadline: the run's context may already be over. A Ctrl-C during the
// cleanup cuts it short, and the error then names what is left.
func cleanUp(run *live.Run) error {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	ctx, stop := stopOnSignals(ctx)
	defer stop()
	return run.Cleanup(ctx)
}

// stopOnSignals ends ctx on Ctrl-C and on SIGTERM (a CI job or a pod being
// stopped), so that a live simulate cleans up either way.
func stopOnSignals(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
