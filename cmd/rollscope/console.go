package main

import (
	"context"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"
	"k8s.io/client-go/discovery"

	"rollscope/engine/analysisrun"
	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/internal/console"
	"rollscope/internal/embeddedfleet"
	"rollscope/internal/flightrec"
	"rollscope/internal/livefleet"
	"rollscope/kube/connect"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/themes"
	"rollscope/ui"
	"rollscope/ui/plain"
)

// rootFlags are the flags of the console itself.
type rootFlags struct {
	scenario string
	speed    float64
	seed     int64
	until    time.Duration
	timeout  time.Duration
	theme    string
	plain    bool
	all      bool // -A: every namespace, whatever -n says (as kubectl has it)
	conn     *connect.Flags
	acts     actionFlags
	rec      flightrec.Flags
}

// addConsole registers the console's flags on root and returns its run
// function. With no cluster flags the console runs the embedded cluster;
// --kubeconfig, --context and the other kubectl flags pick a live one.
func addConsole(root *cobra.Command) func(*cobra.Command, []string) error {
	f := &rootFlags{conn: connect.NewFlags()}
	fs := root.Flags()
	fs.StringVarP(&f.scenario, "scenario", "f", "frontend", "embedded cluster: built-in scenario name or scenario file (-f, as simulate takes it)")
	fs.Float64Var(&f.speed, "speed", 10, "embedded cluster: virtual clock speed, in multiples of real time")
	fs.Int64Var(&f.seed, "seed", 0, "embedded cluster: jitter seed; overrides the scenario's seed")
	fs.DurationVar(&f.until, "until", 0, "embedded cluster with --plain: stop after this much virtual time")
	fs.StringVar(&f.theme, "theme", "", "colour theme: "+themes.Listed()+", or a theme file (default: from the terminal background)")
	fs.BoolVarP(&f.all, "all-namespaces", "A", false, "watch every namespace (the fleet of all of them); wins over -n, as in kubectl")
	fs.DurationVar(&f.timeout, "timeout", 0, "live cluster with --plain rollout/NAME: stop watching after this long, exit 1 unless Healthy (kubectl argo rollouts status --timeout)")
	fs.BoolVar(&f.plain, "plain", false, "print status lines instead of the console (the default when stdout is not a terminal)")
	f.conn.AddTo(fs)
	f.acts.addTo(fs)
	f.rec.AddTo(fs, "record-to", "")
	return func(cmd *cobra.Command, args []string) error {
		// A live cluster's kind words are resolved through its discovery,
		// once connected (liveTarget).
		var open target
		if !f.conn.Live() {
			var err error
			if open, err = targetArg(args); err != nil {
				return err
			}
			if f.plain || !isTerminal(os.Stdout) {
				if err := plainFollows(open); err != nil {
					return err
				}
			}
		}
		if err := sim.CheckSpeed(f.speed); err != nil {
			return usageError{err}
		}
		// Every flag is checked before anything starts, whichever mode runs.
		theme, keys, err := consoleSettings(f)
		if err != nil {
			return err
		}
		if err := f.rec.Open(f.conn.User()); err != nil {
			return usageError{err}
		}
		defer f.rec.Rec.Close()
		ctx, stop := interruptible(cmd.Context())
		defer stop()
		if f.conn.Live() {
			if err := embeddedfleet.RefuseLive(f.scenario, cmd.Flags().Changed("scenario")); err != nil {
				return err
			}
			if f.plain || !isTerminal(os.Stdout) {
				return runLivePlain(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), f, args)
			}
			return runLive(ctx, f, args, theme, keys)
		}
		sc, err := loadScenario(f.scenario, f.until)
		if err != nil {
			return err
		}
		nsFlag, _ := cmd.Flags().GetString("namespace")
		if len(sc.Clusters) > 0 { // one fleet over the scenario's clusters, as over --context a,b
			return embeddedfleet.Run(ctx, sc, embeddedfleet.Config{Base: consoleOptions(open, theme, keys), Plain: f.plain || !isTerminal(os.Stdout),
				Out: cmd.OutOrStdout(), ErrOut: cmd.ErrOrStderr(), Speed: f.speed, Seed: f.seed, Until: f.until, All: f.all, Namespace: nsFlag,
				Console: console.Run, Actions: f.acts.apply, Rec: f.rec.Rec})
		}
		if f.all && open.deployment == "" && open.rc == "" && open.workload == "" {
			nsFlag = "" // -A wins over -n, as in kubectl
		}
		ns, err := embeddedNamespace(sc, nsFlag)
		if err != nil {
			return err
		}
		if err := checkEmbeddedTarget(sc, ns, open.deployment); err != nil {
			return err
		}
		if (f.plain || !isTerminal(os.Stdout)) && open.deployment == "" && (f.all || sc.Workloads(ns) > 1) {
			if f.all {
				ns = ""
			}
			return runFleetPlain(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), f, sc, ns)
		}
		if f.plain || !isTerminal(os.Stdout) {
			return runPlain(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), f, sc, ns, open.deployment+open.workload, open.workloadKind)
		}
		if nsFlag == "" && open.deployment == "" && open.rc == "" && open.workload == "" && sc.SpansNamespaces() {
			// Opening on the scenario's own namespace would hide what is
			// failing in the others: the console opens on all of them,
			// and 0 goes back to the scenario's own.
			f.all = true
		}
		return runEmbedded(ctx, f, sc, ns, open, theme, keys)
	}
}

// target is what the console opens first: a deployment, or the rolling
// update view of a ReplicationController.
type target struct {
	deployment, rc string
	// workload is a StatefulSet or DaemonSet (sts/NAME, ds/NAME), of kind
	// workloadKind.
	workload     string
	workloadKind kind.Kind
	fleet        bool // started again on a scope's fleet: ui.Options.ShowFleet
}

// targetArg reads the optional deploy/NAME (or NAME), rc/NAME, sts/NAME or
// ds/NAME argument for the embedded cluster.
func targetArg(args []string) (target, error) { return readTarget(args, connect.Registry{}) }

// liveTarget reads the argument as kubectl does on a live cluster: the kind
// word through the server's discovery (its short names, a CRD's own).
func liveTarget(args []string, d discovery.DiscoveryInterface) (target, error) {
	return readTarget(args, connect.NewKinds(d))
}

// readTarget parses the argument with the registry's parser and resolves
// its kind word with kinds.
func readTarget(args []string, kinds connect.KindResolver) (target, error) {
	if len(args) == 0 {
		return target{}, nil
	}
	ref, err := connect.ResolveArg(args[0], kinds)
	switch {
	case err != nil:
		return target{}, usageError{err}
	case ref.Kind == kind.Deployment:
		return target{deployment: ref.Name}, nil
	case ref.Kind == kind.ReplicationController:
		return target{rc: ref.Name}, nil
	}
	return target{workload: ref.Name, workloadKind: ref.Kind}, nil
}

// plainFollows refuses a target --plain does not follow (plain.Follows).
func plainFollows(open target) error {
	if open.rc != "" {
		return badInput("rc/%s: --plain follows deployments; open the ReplicationController in the console, or run rollscope rolling-update for progress lines", open.rc)
	}
	if open.workload != "" && !plain.Follows(open.workloadKind) {
		return badInput("%s/%s: --plain follows deployments and Argo Rollouts; open it in the console, or run rollscope simulate for its trace", open.workloadKind, open.workload)
	}
	return nil
}

// livePlainTarget is what --plain follows on a live cluster, read once connected.
func livePlainTarget(args []string, conn *connect.Connection) (target, error) {
	open, err := liveTarget(args, conn.Client.Discovery())
	if err != nil {
		return target{}, err
	}
	return open, plainFollows(open)
}

// runEmbedded runs the scenario's cluster in real time × speed and the
// console on it, watching it through client-go informers like a live one.
// When the operator asks for a scope the watch does not cover (ui.Switch),
// the console starts again on it, on the same running cluster.
func runEmbedded(ctx context.Context, f *rootFlags, sc *scenario.Scenario, ns string, open target, theme themes.Theme, keys *ui.KeyMap) error {
	cl, err := startEmbedded(ctx, sc, embedded.Options{Seed: f.seed})
	if err != nil {
		return err
	}
	clock := cl.Clock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	clock.SetSpeed(f.speed)
	go cl.Runner.RunRealtime(ctx)
	scope := ui.Switch{Namespace: ns, AllNamespaces: f.all}
	for {
		opts := consoleOptions(open, theme, keys)
		opts.Namespace, opts.AllNamespaces, opts.Context = scope.Namespace, scope.AllNamespaces, "embedded"
		opts.Clock, opts.Embedded, opts.Logs = clock.Now, sim.NewControls(cl.Runner, f.speed), cl.Logs
		f.acts.apply(&opts, cl.Client, clock.Now, false, sc.NodeGroups, analysisrun.SeriesMetrics(sc.Metrics))
		watched := f.rec.Rec.Watch(&opts, watch.Target{Client: cl.Client, Scope: watch.ScopeOf(opts.Namespace, opts.AllNamespaces)})
		feed := f.rec.Rec.Console(&opts, func(ctx context.Context, send func(tea.Msg)) {
			watch.RunEach(ctx, clock, func(b cluster.Batch) { send(b) }, watched)
		})
		next, again, err := console.Run(ctx, opts, feed)
		if err != nil || !again {
			return err
		}
		// The embedded cluster has one context: a :ctx keeps it.
		scope, open = keepNamespace(next, scope), target{fleet: next.Fleet}
	}
}

// consoleOptions are the console's options whichever cluster it runs on:
// what it opens first, its theme and its keys.
func consoleOptions(open target, theme themes.Theme, keys *ui.KeyMap) ui.Options {
	return ui.Options{Cluster: cluster.NewCluster(), Deployment: open.deployment, RC: open.rc,
		Workload: open.workload, WorkloadKind: open.workloadKind, ShowFleet: open.fleet, Theme: theme, Keys: keys}
}

// keepNamespace is the scope asked for, keeping the namespace watched when it names none (:ns all, :ctx NAME).
func keepNamespace(next, was ui.Switch) ui.Switch {
	if next.Namespace == "" {
		next.Namespace = was.Namespace
	}
	return next
}

// runLive connects to the cluster the kubectl flags name. When the operator
// asks for another scope (ui.Switch), it connects again with the new
// context and namespace and starts the console on them.
func runLive(ctx context.Context, f *rootFlags, args []string, theme themes.Theme, keys *ui.KeyMap) error {
	console.OneCore()
	all, fleet := f.all, false
	for {
		next, again, err := runLiveOnce(ctx, f, all, fleet, args, theme, keys)
		if err != nil || !again {
			return err
		}
		f.conn.Switch(next.Context, next.Namespace)
		all, args, fleet = next.AllNamespaces, nil, next.Fleet
	}
}

// runLiveOnce is one console on the contexts the flags name, each with its
// own connection, RBAC, controllers and watch (internal/livefleet), open
// once the first answers; it returns the scope asked for when the operator
// switched. args is what it opens first; fleet, that it opens on the fleet.
func runLiveOnce(ctx context.Context, f *rootFlags, all, fleet bool, args []string, theme themes.Theme, keys *ui.KeyMap) (ui.Switch, bool, error) {
	d, err := f.conn.Dial(ctx)
	if err != nil {
		return ui.Switch{}, false, err
	}
	defer d.Stop()
	conns, failed, pending, err := d.Start(ctx)
	if err != nil {
		return ui.Switch{}, false, err
	}
	open, err := liveTarget(args, conns[0].Client.Discovery())
	if err != nil {
		return ui.Switch{}, false, err
	}
	open.fleet = fleet
	w := &livefleet.Wiring{Base: consoleOptions(open, theme, keys), All: all, Contexts: f.conn.Contexts(), ReadOnly: f.acts.readOnly, DeleteNodes: f.acts.deleteNodes,
		Watch: f.rec.Rec.Watch, Actions: f.acts.apply}
	defer w.Stop()
	opts, watches, err := w.Open(ctx, d.Names(), conns, failed, pending)
	if err != nil {
		return ui.Switch{}, false, err
	}
	feed := f.rec.Rec.Console(&opts, w.Feed(d, watches))
	return console.Run(ctx, opts, feed)
}

// consoleSettings reads the theme and the key map the console will use.
func consoleSettings(f *rootFlags) (themes.Theme, *ui.KeyMap, error) {
	var theme themes.Theme
	switch {
	case f.theme != "":
		t, err := themes.Load(f.theme)
		if err != nil {
			return theme, nil, usageError{err}
		}
		theme = t
	case themes.NoColorRequested():
		theme = themes.NoColor()
	case isTerminal(os.Stdin) && isTerminal(os.Stdout):
		theme = themes.Auto(lipgloss.HasDarkBackground(os.Stdin, os.Stdout))
	default:
		theme = themes.Auto(true)
	}
	keys, err := ui.LoadKeyMap("")
	if err != nil {
		return theme, nil, usageError{err}
	}
	return theme, &keys, nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
