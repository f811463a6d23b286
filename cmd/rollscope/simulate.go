package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"rollscope/engine/embedded"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
	"rollscope/internal/embeddedfleet"
	"rollscope/internal/profile"
	"rollscope/kube/connect"
	"rollscope/ui/plain"
)

// epoch is where virtual time starts; traces count from it, so it never shows.
var epoch = embedded.Epoch

type simulateFlags struct {
	file   string
	format string
	until  time.Duration
	seed   int64
	// conn are kubectl's connection flags: any of them picks a live cluster.
	conn                      *connect.Flags
	noHollowNodes, exitStatus bool
	// speed is refused: it is the console's flag, and has no meaning here.
	speed    float64
	speedSet bool
	// cpuProfile writes a CPU profile of the run, for work on performance.
	cpuProfile string
	// memProfile writes the heap held at the end of the run (every pod and
	// event still stored), for work on memory.
	memProfile string
}

func newSimulate() *cobra.Command {
	f := &simulateFlags{conn: connect.NewFlags()}
	cmd := &cobra.Command{
		Use:   "simulate -f FILE|NAME [--kubeconfig FILE] [--context NAME] [--no-hollow-nodes]",
		Short: "Run a scenario and print its trace: at full speed on the embedded cluster, or in real time on a live one",
		Long: "Without cluster flags, simulate runs the scenario on the embedded cluster at full speed.\n" +
			"With --kubeconfig, --context or another kubectl connection flag it runs the same scenario on that\n" +
			"cluster in real time, in a fresh namespace rollscope-sim-<scenario>-<id>, with the real controller\n" +
			"manager doing the rolling, and writes the same trace (t is then wall seconds since the objects were\n" +
			"created). The scenario's node groups run as hollow nodes (rollscope's kubelet simulator, with the\n" +
			"scenario's image behaviour), and its pods are kept on them. With --no-hollow-nodes the cluster's own\n" +
			"nodes run the pods: images are then really pulled and started by the real kubelets, the scenario's\n" +
			"images: rules do not apply, and drain and rollNodes actions are not supported. -n/--namespace is not\n" +
			"where the run goes (it always makes its own namespace); --seed applies to the embedded cluster only.\n" +
			"The namespace and hollow nodes are removed on exit, also on Ctrl-C.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.speedSet = cmd.Flags().Changed("speed")
			return runSimulate(cmd.Context(), f)
		},
	}
	cmd.Flags().StringVarP(&f.file, "file", "f", "", "scenario file, or the name of a built-in scenario (rollscope scenarios lists them)")
	cmd.Flags().StringVar(&f.format, "format", "jsonl", "trace format: jsonl or table")
	cmd.Flags().DurationVar(&f.until, "until", 0, "stop after this much virtual time (wall time on a live cluster), for example 5m; 0 runs until every rollout has finished")
	cmd.Flags().Int64Var(&f.seed, "seed", 0, "jitter seed; overrides the scenario's seed")
	cmd.Flags().BoolVar(&f.exitStatus, "exit-status", false, "exit as kubectl rollout status would at the end: 1 when a rollout exceeded its progress deadline or had not finished")
	cmd.Flags().BoolVar(&f.noHollowNodes, "no-hollow-nodes", false, "live cluster: run the pods on the cluster's own nodes (real kubelets, real images) instead of hollow nodes")
	cmd.Flags().Float64Var(&f.speed, "speed", 0, "")
	_ = cmd.Flags().MarkHidden("speed")
	f.conn.AddTo(cmd.Flags())
	cmd.Flags().StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	_ = cmd.Flags().MarkHidden("cpuprofile")
	cmd.Flags().StringVar(&f.memProfile, "memprofile", "", "write a heap profile of what the cluster holds at the end of the run to this file")
	_ = cmd.Flags().MarkHidden("memprofile")
	return cmd
}

func runSimulate(ctx context.Context, f *simulateFlags) error {
	if f.file == "" {
		return badInput("simulate needs a scenario: -f FILE or -f NAME (built-in: see `rollscope scenarios`)")
	}
	if _, err := trace.ParseFormat(f.format); err != nil {
		return badInput("--format %q is not a trace format: use jsonl or table", f.format)
	}
	if f.speedSet {
		if f.conn.Live() {
			return badInput("--speed has no meaning on a live cluster: a live simulate runs in real time")
		}
		return badInput("--speed is the console's: simulate runs the embedded cluster at full speed")
	}
	if f.noHollowNodes && !f.conn.Live() {
		return badInput("--no-hollow-nodes is for a live cluster: add --kubeconfig or --context, or leave it out")
	}
	sc, err := loadScenario(f.file, f.until)
	if err != nil {
		return err
	}
	if !f.conn.Live() {
		embedded.SetSimulationCollector(sc) // of one cluster or several side by side
	}
	if len(sc.Clusters) > 0 {
		return embeddedfleet.Simulate(ctx, os.Stdout, sc, f.conn.Live(), embeddedfleet.Trace{Format: f.format, Until: f.until, Seed: f.seed, ExitStatus: f.exitStatus})
	}
	if f.conn.Live() {
		return runLiveSimulate(ctx, f, sc)
	}
	ctx, stop := interruptible(ctx)
	defer stop()

	if f.cpuProfile != "" {
		stopProfile, create, err := profile.CPU(f.cpuProfile)
		if create != nil {
			return badInput("--cpuprofile: %v", create)
		} else if err != nil {
			return err
		}
		defer stopProfile()
	}
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	held := trace.NewHeld(out)
	tw := trace.New(held, trace.Format(f.format), epoch, sc.NodeGroups)
	tw.NodeLinesPerInstant()
	tw.Script(sc.Actions)
	tw.Home(sc.Namespace) // lines about other namespaces name theirs
	cl, err := startEmbedded(ctx, sc, embedded.Options{
		Seed: f.seed, ExitStatus: f.exitStatus,
		ChangeObservers: []sim.ChangeObserver{tw.ObserveChange},
		OnAction:        tw.Action, Headless: true,
	})
	if err != nil {
		// Nothing has been written: bad input leaves no partial trace.
		return err
	}
	clock := cl.Clock()
	if err := held.Release(); err != nil {
		return fmt.Errorf("writing the trace: %w", err)
	}
	stopProgress := func() {}
	if isTerminal(os.Stderr) {
		stopProgress = plain.Progress(os.Stderr, func() time.Duration { return clock.Now().Sub(epoch) }, progressAfter, progressEvery)
	}
	reason, err := cl.Run(ctx, f.until)
	stopProgress()
	if f.memProfile != "" {
		if create, perr := profile.Heap(f.memProfile); create != nil {
			return badInput("--memprofile: %v", create)
		} else if perr != nil {
			return perr
		}
		runtime.KeepAlive(cl)
	}
	tw.End(clock.Now(), reason)
	if ferr := tw.Flush(); ferr != nil {
		return fmt.Errorf("writing the trace: %w", ferr)
	}
	if ferr := out.Flush(); ferr != nil {
		return fmt.Errorf("writing the trace: %w", ferr)
	}
	return err
}

// A full-speed run of a large scenario takes tens of seconds with nothing on
// the terminal while the trace goes to a file: progress says it is alive and
// how far it got. It starts only after progressAfter, so that the small runs
// people pipe and diff print nothing extra, and only when stderr is a
// terminal, so that logs and CI output stay clean.
const (
	progressAfter = 3 * time.Second
	progressEvery = time.Second
)
