package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/internal/livefleet"
	"rollscope/kube/access"
	"rollscope/kube/connect"
	kubewatch "rollscope/kube/watch"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/plain"
)

// runPlain runs the embedded cluster in real time and prints a status line
// for each deployment it follows (or the Rollout, k) whenever it changes, stamped with the
// virtual time: the console for a pipe or a log. It ends, as `kubectl
// rollout status` does, once every rollout it follows has finished (exit
// 0) or failed (exit 1) and the scenario has nothing left to do — or at
// --until, or on Ctrl-C.
func runPlain(ctx context.Context, out, banner io.Writer, f *rootFlags, sc *scenario.Scenario, ns, name string, k kind.Kind) error {
	ctx, stop := interruptible(ctx)
	defer stop()
	ctx, end := context.WithCancel(ctx)
	defer end()
	p := plain.NewStatus(out, name, virtualStamp)
	p.Embedded, p.Scripted, p.Namespace, p.Kind = true, len(sc.Actions), ns, k
	cl, err := startEmbedded(ctx, sc, embedded.Options{Seed: f.seed, OnAction: p.Action})
	if err != nil {
		return err
	}
	p.FollowEmbedded(ctx, cl.Finished, end, cl.Clock().Now)
	fmt.Fprintf(banner, "rollscope: embedded cluster, scenario %q at %gx real time (Ctrl-C to stop)\n", sc.Name, f.speed)
	if err := followEmbedded(ctx, cl, f, ns, end, f.rec.Rec.Batches("embedded", ns, cl.Clock().Now, p.Batch)); err != nil {
		return err
	}
	return p.Outcome()
}

// runFleetPlain follows the embedded cluster's fleet in namespace ("" for
// every one) until --until or Ctrl-C.
func runFleetPlain(ctx context.Context, out, banner io.Writer, f *rootFlags, sc *scenario.Scenario, namespace string) error {
	ctx, end := context.WithCancel(ctx)
	defer end()
	p := plain.NewFleet(out, nil, namespace, virtualStamp)
	cl, err := startEmbedded(ctx, sc, embedded.Options{Seed: f.seed, OnAction: p.Action})
	if err != nil {
		return err
	}
	fmt.Fprintf(banner, "rollscope: embedded cluster, scenario %q at %gx real time, %s (Ctrl-C to stop)\n", sc.Name, f.speed, plain.ScopeWords(namespace))
	go p.TickEvery(ctx, 100*time.Millisecond, cl.Clock().Now)
	if err := followEmbedded(ctx, cl, f, namespace, end, f.rec.Rec.Batches("embedded", namespace, cl.Clock().Now, p.Batch)); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// virtualStamp is the embedded cluster's stamp: virtual seconds.
func virtualStamp(at time.Time) string { return fmt.Sprintf("%7.1fs", at.Sub(epoch).Seconds()) }

// followEmbedded runs the embedded cluster in real time × --speed until ctx
// ends (end at --until), feeding batch from a watch of namespace through
// client-go informers, as the console watches, a batch every tenth of a
// virtual second so that the stamps say when each change happened. The
// watch outlives the run by a moment, on a stopped clock, so that the last
// changes are printed too.
func followEmbedded(ctx context.Context, cl *embedded.Cluster, f *rootFlags, namespace string, end func(), batch func(cluster.Batch)) error {
	// --until ends the run on the virtual clock: the same virtual minutes
	// whatever the machine's load (the clock slows when the runner falls
	// behind) and not counting the cluster's start.
	if f.until > 0 {
		cl.Runner.At(f.until, end)
	}
	clk := cl.Clock()
	interval := min(max(time.Duration(float64(100*time.Millisecond)/f.speed), time.Millisecond), kubewatch.DefaultInterval)
	watching, stopWatching := context.WithCancel(context.WithoutCancel(ctx))
	// The clock flows once the watch has its first batch: at a high
	// --speed the start would otherwise be over before anything is
	// printed.
	var flowing sync.Once
	flow := func() { flowing.Do(func() { clk.SetSpeed(f.speed); cl.Runner.Poke() }) }
	done := make(chan error, 1)
	go func() {
		first := func(b cluster.Batch) { batch(b); flow() }
		err := kubewatch.New(cl.Client, kubewatch.Scope{Namespace: namespace}, clk, first, kubewatch.Options{Interval: interval}).Run(watching)
		flow() // a watch that ended without a batch holds nothing back
		done <- err
	}()
	cl.Runner.RunRealtime(ctx)
	clk.SetSpeed(0)
	time.Sleep(3 * interval)
	stopWatching()
	return <-done
}

// runLivePlain prints the status lines of a live cluster, stamped with the
// wall clock; name, when set, limits them to that deployment. It ends as
// `kubectl rollout status` does: once every deployment it follows has
// finished (exit 0) or exceeded its progress deadline (exit 1).
func runLivePlain(ctx context.Context, out, banner io.Writer, f *rootFlags, args []string) error {
	d, err := f.conn.Dial(ctx)
	if err != nil {
		return err
	}
	defer d.Stop()
	return plain.Each(ctx, banner, d.Names(), livefleet.Arrivals(ctx, d), wallStamp, func(ctx context.Context, conn *connect.Connection, stamp func(time.Time) string) error {
		return runLivePlainOn(ctx, out, banner, f, args, conn, stamp)
	})
}

// runLivePlainOn is runLivePlain on one cluster, each line after stamp.
func runLivePlainOn(ctx context.Context, out, banner io.Writer, f *rootFlags, args []string, conn *connect.Connection, stamp func(time.Time) string) error {
	open, err := livePlainTarget(args, conn)
	if err != nil {
		return err
	}
	name := open.deployment + open.workload // at most one is named
	if name == "" && (f.all || kubewatch.CountWorkloads(ctx, conn.Client, conn.Namespace) > 1) {
		return runLiveFleetPlain(ctx, out, banner, conn, f.all, stamp)
	}
	fmt.Fprintf(banner, "rollscope: watching namespace %q of context %q (Ctrl-C to stop)\n", conn.Namespace, conn.Context)
	ctx, end, err := plain.Deadline(ctx, open.workloadKind, f.timeout)
	if err != nil {
		return err
	}
	defer end()
	p := plain.NewStatus(out, name, stamp)
	p.ErrOut, p.Namespace, p.OnEnd, p.Kind = banner, conn.Namespace, end, open.workloadKind
	if err := followLive(ctx, conn, conn.Namespace, f.rec.Rec.Batches(conn.Context, conn.Namespace, nil, p.Batch)); err != nil {
		return err
	}
	return p.Outcome()
}

// runLiveFleetPlain follows a live cluster's fleet until Ctrl-C. all is -A:
// a user who may not list every namespace gets the kubeconfig's, and the
// line that says so on stderr.
func runLiveFleetPlain(ctx context.Context, out, banner io.Writer, conn *connect.Connection, all bool, stamp func(time.Time) string) error {
	namespace := conn.Namespace
	if all {
		var note string
		if all, note = access.AllNamespacesOn(ctx, conn); note != "" {
			fmt.Fprintln(banner, note)
		}
		if all {
			namespace = ""
		}
	}
	fmt.Fprintf(banner, "rollscope: watching %s of context %q (Ctrl-C to stop)\n", plain.ScopeWords(namespace), conn.Context)
	p := plain.NewFleet(out, banner, namespace, stamp)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go p.TickEvery(ctx, time.Second, time.Now)
	return followLive(ctx, conn, namespace, p.Batch)
}

// wallStamp is a live cluster's stamp: the wall clock.
func wallStamp(at time.Time) string { return at.Format("15:04:05") }

// followLive feeds batch from a watch of the live cluster's namespace until
// ctx ends.
func followLive(ctx context.Context, conn *connect.Connection, namespace string, batch func(cluster.Batch)) error {
	err := kubewatch.New(conn.Client, kubewatch.Scope{Namespace: namespace}, nil, batch,
		kubewatch.Options{Probe: kubewatch.ReadyzProbe(conn.Client), Config: conn.RESTConfig()}).Run(ctx)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
