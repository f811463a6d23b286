// Package embeddedfleet runs a scenario of several named clusters
// (scenario clusters:) in the embedded mode: one embedded cluster per name,
// each on its own API, all on one virtual clock (embedded.BootClusters),
// handed to the console as several clusters are from a kubeconfig
// (ui.Options.Also, one cluster.Cluster Named after each) — the same
// fleet, CLUSTER column, ctx: filter, g grouping and per-row actions — and
// to --plain as plain.Each follows several contexts. It is cmd's wiring,
// kept out of cmd.
package embeddedfleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/analysisrun"
	"rollscope/engine/canary"
	"rollscope/engine/embedded"
	"rollscope/engine/nodegroup"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
	"rollscope/ui"
	"rollscope/ui/plain"
)

// Config is what the command's flags say of the run.
type Config struct {
	// Base is what every cluster's console options start from: what the
	// console opens first, its theme and keys.
	Base ui.Options
	// Plain prints status lines instead of the console; Out and ErrOut are
	// where.
	Plain       bool
	Out, ErrOut io.Writer
	// Speed, Seed and Until are --speed, --seed and --until; All is -A,
	// Namespace -n (every cluster's namespace; "" each its scenario's).
	Speed     float64
	Seed      int64
	Until     time.Duration
	All       bool
	Namespace string
	// Actions hands a cluster's options its actions on its client, with
	// the clock, false (not live) and the cluster's node groups.
	Actions func(o *ui.Options, c kubernetes.Interface, now func() time.Time, live bool, groups []nodegroup.Group, metrics canary.Metrics)
	// Console runs the console on opts with feed beside it, and returns
	// the scope asked for when the operator switched.
	Console func(ctx context.Context, opts ui.Options, feed func(context.Context, func(tea.Msg))) (ui.Switch, bool, error)
	// Rec is --record-to's recording of the first cluster, as of a
	// kubeconfig's first context (internal/flightrec's Recorder, which
	// records nothing when nil).
	Rec Recorder
}

// Recorder taps a console's or --plain's watch of one cluster
// (flightrec.Recorder).
type Recorder interface {
	Watch(opts *ui.Options, t watch.Target) watch.Target
	Console(opts *ui.Options, feed func(context.Context, func(tea.Msg))) func(context.Context, func(tea.Msg))
	Batches(context, namespace string, clock func() time.Time, send func(cluster.Batch)) func(cluster.Batch)
}

// notRecording is the Recorder of a run without --record-to.
type notRecording struct{}

func (notRecording) Watch(opts *ui.Options, t watch.Target) watch.Target {
	t, opts.PodEvents = t.Describing()
	t, opts.Pods = t.ChoosingPods()
	return t
}

func (notRecording) Console(_ *ui.Options, feed func(context.Context, func(tea.Msg))) func(context.Context, func(tea.Msg)) {
	return feed
}

func (notRecording) Batches(_, _ string, _ func() time.Time, send func(cluster.Batch)) func(cluster.Batch) {
	return send
}

// Backend is the API an embedded cluster runs on, kube/memapi's: every
// command's (embedded.Boot's NewBackend), each cluster's here.
func Backend(clock *sim.Clock, seed int64) embedded.Backend {
	return memapi.New(memapi.Options{Clock: clock, Seed: seed})
}

// Run runs sc's clusters and the console (or --plain) on them until the
// operator quits, or --plain ends.
func Run(ctx context.Context, sc *scenario.Scenario, c Config) error {
	if err := checkNamespace(sc, c); err != nil {
		return err
	}
	if err := checkTarget(sc, c.Base.Deployment); err != nil {
		return err
	}
	if c.Rec == nil {
		c.Rec = notRecording{}
	}
	if c.Plain {
		return runPlain(ctx, sc, c)
	}
	cs, err := embedded.BootClusters(ctx, sc, Backend, func(string) embedded.Options { return embedded.Options{Seed: c.Seed} })
	if err != nil {
		// As a scenario that cannot start on one cluster: bad input.
		return badInput{err}
	}
	defer cs.Close()
	clock := cs.Clock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	clock.SetSpeed(c.Speed)
	go cs.RunRealtime(ctx)
	controls := sim.NewControls(cs[0].Runner, c.Speed, runners(cs[1:])...)
	scope := ui.Switch{AllNamespaces: c.All}
	if !c.All {
		scope.Namespace = c.Namespace
	}
	// :ctx lists and switches among the scenario's clusters as among a
	// kubeconfig's contexts; those not shown run on all the same.
	c.Base.Contexts = sc.ClusterNames()
	fleet := false // a namespace scope the operator switched to shows its fleet
	for {
		shown := chosen(cs, scope.Context)
		each, targets := make([]ui.Options, len(shown)), make([]watch.Target, len(shown))
		for i, cl := range shown {
			each[i], targets[i] = member(c, cl, scope, clock.Now, controls)
		}
		// The first cluster is the one recorded: its watch keeps every
		// event, for a replay's pod details; the others watch pods'
		// Normal events only for the pod described (Describing).
		targets[0] = c.Rec.Watch(&each[0], targets[0])
		for i := 1; i < len(shown); i++ {
			targets[i] = notRecording{}.Watch(&each[i], targets[i])
		}
		opts := each[0]
		opts.Also, opts.ShowFleet = each[1:], fleet
		feed := c.Rec.Console(&opts, func(ctx context.Context, send func(tea.Msg)) {
			watch.RunEach(ctx, clock, func(b cluster.Batch) { send(b) }, targets...)
		})
		next, again, err := c.Console(ctx, opts, feed)
		if err != nil || !again {
			return err
		}
		// A :ns changes each shown cluster's namespace; a :ctx which
		// clusters are shown ("" keeps them).
		if next.Context == "" {
			next.Context = scope.Context
		}
		scope, fleet = next, next.Fleet
	}
}

// chosen are the clusters of cs that names (":ctx a,b", as the console
// checked them against the scenario's) asks for, in its order; all of
// them for "".
func chosen(cs embedded.Clusters, names string) embedded.Clusters {
	if names == "" {
		return cs
	}
	var out embedded.Clusters
	for _, name := range cluster.ContextNames(names) {
		for _, cl := range cs {
			if cl.Scenario.Cluster == name {
				out = append(out, cl)
			}
		}
	}
	if len(out) == 0 {
		return cs
	}
	return out
}

// checkTarget refuses a deployment none of the clusters creates in its
// namespace, naming those they do: nothing else will ever appear there.
// checkNamespace refuses --plain's -n of a namespace no cluster of the
// scenario has: the clusters start from the scenario alone, so nothing
// would ever show there and the run would wait for ever. (The console
// shows the empty namespace, and :ns moves on from it.)
func checkNamespace(sc *scenario.Scenario, c Config) error {
	if !c.Plain || c.Namespace == "" || c.All {
		return nil
	}
	var have []string
	for _, s := range sc.Clusters {
		ns := s.Namespaces()
		if slices.Contains(ns, c.Namespace) {
			return nil
		}
		have = append(have, ns...)
	}
	slices.Sort(have)
	return badInput{fmt.Errorf("-n %s: no cluster of scenario %q has namespace %q (theirs: %s) — leave -n out, or add objects there to the scenario",
		c.Namespace, sc.Name, c.Namespace, strings.Join(slices.Compact(have), ", "))}
}

// badInput is a refusal of what was asked: exit 2.
type badInput struct{ error }

func (badInput) BadInput() bool { return true }

func checkTarget(sc *scenario.Scenario, name string) error {
	if name == "" {
		return nil
	}
	var have []string
	for _, c := range sc.Clusters {
		ds := c.Deployments(c.Namespace)
		if slices.Contains(ds, name) {
			return nil
		}
		have = append(have, ds...)
	}
	slices.Sort(have)
	return plain.NotFound(sc.Clusters[0].Namespace, name, slices.Compact(have))
}

// member is one cluster's console options and watch: its picture Named
// after it, its namespace (the scenario's, or every one when asked or
// when its workloads span several), its actions, logs and clock.
func member(c Config, cl *embedded.Cluster, scope ui.Switch, now func() time.Time, controls ui.EmbeddedControls) (ui.Options, watch.Target) {
	sc, opts := cl.Scenario, c.Base
	name := sc.Cluster
	opts.Cluster = cluster.NewCluster().Named(name)
	opts.Namespace, opts.Context = sc.Namespace, name
	if scope.Namespace != "" {
		opts.Namespace = scope.Namespace
	}
	opts.AllNamespaces = scope.AllNamespaces || scope.Namespace == "" && sc.SpansNamespaces()
	opts.Clock, opts.Embedded, opts.Logs = now, controls, cl.Logs
	c.Actions(&opts, cl.Client, now, false, sc.NodeGroups, analysisrun.SeriesMetrics(sc.Metrics))
	return opts, watch.Target{Client: cl.Client, Scope: watch.ScopeOf(opts.Namespace, opts.AllNamespaces), Options: watch.Options{Cluster: name}}
}

func runners(cs embedded.Clusters) []*sim.Runner {
	out := make([]*sim.Runner, len(cs))
	for i, c := range cs {
		out[i] = c.Runner
	}
	return out
}

// RefuseLive refuses the kubectl connection flags on a scenario of several
// clusters (given says --scenario was): its clusters are the scenario's,
// not a kubeconfig's. One line, at the scenario's clusters:.
func RefuseLive(nameOrFile string, given bool) error {
	if !given {
		return nil
	}
	sc, err := scenario.Load(nameOrFile)
	if err != nil || len(sc.Clusters) == 0 {
		return nil // a one-cluster scenario beside --context is left as it was
	}
	return refuse(sc)
}

func refuse(sc *scenario.Scenario) error {
	names := sc.ClusterNames()
	return &scenario.Error{File: sc.File, Line: sc.ClustersLine, Message: fmt.Sprintf(
		"scenario %q runs its own clusters (%s) in the embedded mode: --context, --all-contexts and --kubeconfig pick live clusters — leave them out, and filter one cluster in the console with ctx:%s",
		sc.Name, strings.Join(names, ", "), names[0])}
}

// stamp is the embedded cluster's stamp, virtual seconds, as --plain
// prints it for one cluster.
func stamp(at time.Time) string { return fmt.Sprintf("%7.1fs", at.Sub(embedded.Epoch).Seconds()) }

// printer is one cluster's --plain lines: a rollout's status, or its fleet.
type printer interface {
	Batch(cluster.Batch)
	Action(now time.Time, kind, target, result string)
}

// namespaceOf is the namespace --plain follows in cluster s: -n's, else
// the scenario's.
func (c Config) namespaceOf(s *scenario.Scenario) string {
	if c.Namespace != "" {
		return c.Namespace
	}
	return s.Namespace
}

// runPlain follows each cluster as --plain follows one embedded cluster —
// its one rollout's status lines until it finishes or fails, or its fleet
// until --until — each line stamped with the cluster's name (plain.Each):
// exit 1 when a rollout failed in any.
func runPlain(ctx context.Context, sc *scenario.Scenario, c Config) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	printers := map[string]printer{}
	statuses := map[string]*plain.Status{}
	for _, s := range sc.Clusters {
		st := func(t time.Time) string { return stamp(t) + " " + s.Cluster }
		ns := c.namespaceOf(s)
		if c.All || s.Workloads(ns) > 1 {
			if c.All {
				ns = ""
			}
			printers[s.Cluster] = plain.NewFleet(c.Out, nil, ns, st)
			continue
		}
		p := plain.NewStatus(c.Out, "", st)
		p.Embedded, p.Scripted, p.Namespace = true, len(s.Actions), ns
		printers[s.Cluster], statuses[s.Cluster] = p, p
	}
	cs, err := embedded.BootClusters(ctx, sc, Backend, func(name string) embedded.Options {
		return embedded.Options{Seed: c.Seed, OnAction: printers[name].Action}
	})
	if err != nil {
		// As a scenario that cannot start on one cluster: bad input.
		return badInput{err}
	}
	defer cs.Close()
	fmt.Fprintf(c.ErrOut, "rollscope: embedded clusters %s, scenario %q at %gx real time (Ctrl-C to stop)\n", strings.Join(sc.ClusterNames(), ", "), sc.Name, c.Speed)
	clock := cs.Clock()
	if c.Until > 0 {
		cs[0].Runner.At(c.Until, stop)
	}
	// The clock flows once every cluster's watch has its first batch.
	var mu sync.Mutex
	waiting := len(cs)
	flow := func() {
		mu.Lock()
		defer mu.Unlock()
		if waiting--; waiting == 0 {
			clock.SetSpeed(c.Speed)
			cs.Poke()
		}
	}
	running, endRun := context.WithCancel(ctx)
	arrivals := make(chan plain.Arrival[*embedded.Cluster], len(cs))
	for _, cl := range cs {
		arrivals <- plain.Arrival[*embedded.Cluster]{Context: cl.Scenario.Cluster, Conn: cl}
	}
	interval := min(max(time.Duration(float64(100*time.Millisecond)/c.Speed), time.Millisecond), watch.DefaultInterval)
	done := make(chan error, 1)
	go func() {
		done <- plain.Each(ctx, c.ErrOut, sc.ClusterNames(), arrivals, stamp, func(ctx context.Context, cl *embedded.Cluster, _ func(time.Time) string) error {
			name := cl.Scenario.Cluster
			ctx, end := context.WithCancel(ctx)
			defer end()
			p := printers[name]
			if st := statuses[name]; st != nil {
				st.FollowEmbedded(ctx, cl.Finished, end, clock.Now)
			} else {
				go p.(*plain.Fleet).TickEvery(ctx, 100*time.Millisecond, clock.Now)
			}
			var once sync.Once
			first := func(b cluster.Batch) { p.Batch(b); once.Do(flow) }
			ns := c.namespaceOf(cl.Scenario)
			if st := statuses[name]; st == nil && c.All {
				ns = ""
			}
			if name == sc.Clusters[0].Cluster {
				first = c.Rec.Batches(name, ns, clock.Now, first)
			}
			err := watch.New(cl.Client, watch.Scope{Namespace: ns}, clock, first, watch.Options{Interval: interval}).Run(ctx)
			once.Do(flow)
			if err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
			if st := statuses[name]; st != nil {
				return st.Outcome()
			}
			return nil
		})
		endRun()
	}()
	cs.RunRealtime(running)
	clock.SetSpeed(0)
	return <-done
}
