package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/clock"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	kubewatch "rollscope/kube/watch"
	"rollscope/model"
)

// runPlain runs the embedded cluster in real time and prints a status line
// for each deployment whenever it changes, stamped with the virtual time:
// the console for a pipe or a log.
func runPlain(ctx context.Context, out io.Writer, f *rootFlags, sc *scenario.Scenario) error {
	ctx, stop := interruptible(ctx)
	defer stop()
	if f.until > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(float64(f.until)/f.speed))
		defer cancel()
	}

	clk := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clk, Seed: seedOf(sc, f.seed)})
	p := newStatusPrinter(out, "", func(at time.Time) string { return fmt.Sprintf("%7.1fs", at.Sub(epoch).Seconds()) })
	cl, err := embedded.Start(ctx, api, clk, sc, embedded.Options{Seed: f.seed, OnAction: p.action})
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(out, "rollscope: embedded cluster, scenario %q at %gx real time (Ctrl-C to stop)\n", sc.Name, f.speed)

	// The printer watches memapi through client-go informers, as the
	// console does, a batch every tenth of a virtual second so that the
	// stamps say when each change happened. It outlives the run by a
	// moment, on a stopped clock, so that the last changes are printed too.
	interval := min(max(time.Duration(float64(100*time.Millisecond)/f.speed), time.Millisecond), kubewatch.DefaultInterval)
	watching, stopWatching := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() {
		done <- p.watch(watching, api.Client(), kubewatch.Scope{}, clk, kubewatch.Options{Interval: interval})
	}()
	clk.SetSpeed(f.speed)
	cl.Runner.RunRealtime(ctx)
	clk.SetSpeed(0)
	time.Sleep(3 * interval)
	stopWatching()
	return <-done
}

// runLivePlain prints the status lines of a live cluster, stamped with the
// wall clock; name, when set, limits them to that deployment.
func runLivePlain(ctx context.Context, out, errOut io.Writer, f *rootFlags, name string) error {
	conn, err := f.conn.Connect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "rollscope: watching namespace %q of context %q (Ctrl-C to stop)\n", conn.Namespace, conn.Context)
	p := newStatusPrinter(out, name, func(at time.Time) string { return at.Format("15:04:05") })
	p.errOut, p.namespace = errOut, conn.Namespace
	return p.watch(ctx, conn.Client, kubewatch.Scope{Namespace: conn.Namespace}, nil,
		kubewatch.Options{Probe: kubewatch.ReadyzProbe(conn.Client)})
}

// statusPrinter prints a deployment's model.StatusLine whenever it changes,
// and the embedded cluster's scripted actions, each line after its stamp.
type statusPrinter struct {
	mu      sync.Mutex // the watch and the embedded runner both print
	out     io.Writer
	name    string // the one deployment to follow; "" follows all
	stamp   func(time.Time) string
	cluster *model.Cluster
	last    map[string]string // namespace/name → its last line
	// why is each deployment's last blocker line printed (model.Blocker,
	// the header's "why" line).
	why map[string]string
	// errOut hears when the picture stops being current and when it is
	// again (watchLine); nil says nothing.
	errOut  io.Writer
	watched model.WatchStatus
	// namespace is the one watched, checked once listed (gone).
	namespace     string
	namespaceSaid bool
}

func newStatusPrinter(out io.Writer, name string, stamp func(time.Time) string) *statusPrinter {
	return &statusPrinter{out: out, name: name, stamp: stamp, cluster: model.NewCluster(), last: map[string]string{},
		why: map[string]string{}}
}

// watch feeds the printer from the same watch bridge and model.Cluster the
// console uses, until ctx is done. clk stamps the lines: the embedded
// cluster's virtual clock, or nil for the wall clock.
func (p *statusPrinter) watch(ctx context.Context, client kubernetes.Interface, scope kubewatch.Scope, clk clock.PassiveClock, opts kubewatch.Options) error {
	return kubewatch.New(client, scope, clk, p.batch, opts).Run(ctx)
}

func (p *statusPrinter) batch(b model.Batch) {
	p.watchChanged(b)
	if !p.cluster.Apply(b) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, d := range p.cluster.Deployments() {
		if p.name != "" && d.Name != p.name {
			continue
		}
		line, key := model.StatusLine(d), d.Namespace+"/"+d.Name
		if p.last[key] != line {
			p.last[key] = line
			fmt.Fprintf(p.out, "[%s] %s\n", p.stamp(b.At), line)
		}
		p.blocker(d, key, b.At)
	}
	p.gone(b.At)
}

// blocker prints the deployment's blocker line, in the header's words
// after "why", when it names something else than the one printed before;
// its clock alone ("not ready for 3s", "4s") is no change. A finished
// rollout has none, and prints nothing for it.
func (p *statusPrinter) blocker(d model.DeploymentSummary, key string, at time.Time) {
	why := p.cluster.Blocker(d.Namespace, d.Name, at)
	if model.SameBlocker(p.why[key], why) {
		return
	}
	p.why[key] = why
	if why != "" {
		fmt.Fprintf(p.out, "[%s] deployment/%s why %s\n", p.stamp(at), d.Name, why)
	}
}

// action prints a scripted action of the embedded cluster as it is sent.
func (p *statusPrinter) action(at time.Time, kind, target, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "[%s] action %s %s: %s\n", p.stamp(at), kind, target, result)
}
