package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/clock"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	kubewatch "rollscope/kube/watch"
	"rollscope/model/cluster"
)

// runPlain runs the embedded cluster in real time and prints a status line
// for each deployment it follows whenever it changes, stamped with the
// virtual time: the console for a pipe or a log. It ends, as `kubectl
// rollout status` does, once every rollout it follows has finished (exit
// 0) or failed (exit 1) and the scenario has nothing left to do — or at
// --until, or on Ctrl-C.
func runPlain(ctx context.Context, out, banner io.Writer, f *rootFlags, sc *scenario.Scenario, ns, name string) error {
	ctx, stop := interruptible(ctx)
	defer stop()
	ctx, end := context.WithCancel(ctx)
	defer end()

	clk := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clk, Seed: seedOf(sc, f.seed)})
	p := newStatusPrinter(out, name, func(at time.Time) string { return fmt.Sprintf("%7.1fs", at.Sub(epoch).Seconds()) })
	p.embedded, p.scripted, p.namespace = true, len(sc.Actions), ns
	cl, err := embedded.Start(ctx, api, clk, sc, embedded.Options{Seed: f.seed, OnAction: p.action})
	if err != nil {
		return usageError{err}
	}
	p.settled = cl.Finished
	p.onEnd = end
	endAtUntil(cl, f.until, end)
	fmt.Fprintf(banner, "rollscope: embedded cluster, scenario %q at %gx real time (Ctrl-C to stop)\n", sc.Name, f.speed)

	// The printer watches memapi through client-go informers, as the
	// console does, a batch every tenth of a virtual second so that the
	// stamps say when each change happened. It outlives the run by a
	// moment, on a stopped clock, so that the last changes are printed too.
	interval := min(max(time.Duration(float64(100*time.Millisecond)/f.speed), time.Millisecond), kubewatch.DefaultInterval)
	watching, stopWatching := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() {
		done <- p.watch(watching, api.Client(), kubewatch.Scope{Namespace: ns}, clk, kubewatch.Options{Interval: interval})
	}()
	clk.SetSpeed(f.speed)
	cl.Runner.RunRealtime(ctx)
	clk.SetSpeed(0)
	time.Sleep(3 * interval)
	stopWatching()
	if err := <-done; err != nil {
		return err
	}
	return p.outcome()
}

// endAtUntil ends an embedded run when its virtual clock reaches --until:
// the same virtual minutes whatever the machine's load (the clock slows
// when the runner falls behind) and not counting the cluster's start.
func endAtUntil(cl *embedded.Cluster, until time.Duration, end func()) {
	if until > 0 {
		cl.Runner.At(until, end)
	}
}

// runLivePlain prints the status lines of a live cluster, stamped with the
// wall clock; name, when set, limits them to that deployment. It ends as
// `kubectl rollout status` does: once every deployment it follows has
// finished (exit 0) or exceeded its progress deadline (exit 1).
func runLivePlain(ctx context.Context, out, banner io.Writer, f *rootFlags, name string) error {
	conn, err := f.conn.Connect(ctx)
	if err != nil {
		return err
	}
	if name == "" && (f.all || liveWorkloads(ctx, conn.Client, conn.Namespace) > 1) {
		return runLiveFleetPlain(ctx, out, banner, conn, f.all)
	}
	fmt.Fprintf(banner, "rollscope: watching namespace %q of context %q (Ctrl-C to stop)\n", conn.Namespace, conn.Context)
	ctx, end := context.WithCancel(ctx)
	defer end()
	p := newStatusPrinter(out, name, func(at time.Time) string { return at.Format("15:04:05") })
	p.errOut, p.namespace, p.onEnd = banner, conn.Namespace, end
	if err := p.watch(ctx, conn.Client, kubewatch.Scope{Namespace: conn.Namespace}, nil,
		kubewatch.Options{Probe: kubewatch.ReadyzProbe(conn.Client), Config: conn.RESTConfig()}); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return p.outcome()
}

// statusPrinter prints a deployment's cluster.StatusLine whenever it changes,
// and the embedded cluster's scripted actions, each line after its stamp.
type statusPrinter struct {
	mu      sync.Mutex // the watch and the embedded runner both print
	out     io.Writer
	name    string // the one deployment to follow; "" follows all
	stamp   func(time.Time) string
	cluster *cluster.Cluster
	last    map[string]string // namespace/name → its last line

	// embedded is set for the embedded cluster: scripted is how many
	// scripted actions it has, ran how many have run, and settled reports
	// whether nothing is in flight (no drain, roll or terminating pod).
	embedded      bool
	scripted, ran int
	settled       func() bool
	// namespace is the live namespace followed, for a not-found error and
	// checked once listed (gone).
	namespace     string
	namespaceSaid bool
	// why is each deployment's last blocker line printed (cluster.Blocker,
	// the header's "why" line).
	why map[string]string
	// errOut hears when the picture stops being current and when it is
	// again (watchLine); nil says nothing.
	errOut  io.Writer
	watched cluster.WatchStatus
	// onEnd stops the run; end is why it stopped (nil: every rollout
	// followed finished).
	onEnd func()
	ended bool
	end   error
}

func newStatusPrinter(out io.Writer, name string, stamp func(time.Time) string) *statusPrinter {
	return &statusPrinter{out: out, name: name, stamp: stamp, cluster: cluster.NewCluster(), last: map[string]string{},
		why: map[string]string{}}
}

// watch feeds the printer from the same watch bridge and cluster.Cluster the
// console uses, a batch at most every interval, until ctx is done. clk
// stamps the lines: the embedded cluster's virtual clock, or nil for the
// wall clock.
func (p *statusPrinter) watch(ctx context.Context, client kubernetes.Interface, scope kubewatch.Scope, clk clock.PassiveClock, opts kubewatch.Options) error {
	return kubewatch.New(client, scope, clk, p.batch, opts).Run(ctx)
}

func (p *statusPrinter) batch(b cluster.Batch) {
	p.watchChanged(b)
	changed := p.cluster.Apply(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !changed && !b.Watch.Synced {
		return
	}
	var followed []cluster.DeploymentSummary
	for _, d := range p.cluster.Deployments() {
		if p.name != "" && d.Name != p.name {
			continue
		}
		followed = append(followed, d)
		line, key := cluster.StatusLine(d), d.Namespace+"/"+d.Name
		if p.last[key] != line {
			p.last[key] = line
			fmt.Fprintf(p.out, "[%s] %s\n", p.stamp(b.At), line)
		}
		p.blocker(d, key, b.At)
	}
	p.gone(b.At)
	if b.Watch.Synced {
		p.check(followed)
	}
}

// check ends the run once every rollout followed has finished or failed
// (embedded: or is paused with nothing left to resume it) and nothing else
// is under way.
func (p *statusPrinter) check(followed []cluster.DeploymentSummary) {
	if p.ended {
		return
	}
	if p.name != "" && len(followed) == 0 {
		if !p.embedded {
			p.stop(notFound(p.namespace, p.name, nil))
		}
		return
	}
	if p.embedded && (p.ran < p.scripted || !p.settled()) {
		return
	}
	var failed []string
	for _, d := range followed {
		switch {
		case d.Failed:
			failed = append(failed, d.Status)
		case d.Done:
		case d.Paused && p.embedded:
			failed = append(failed, fmt.Sprintf("deployment %q is paused part way and nothing left in the scenario resumes it", d.Name))
		default:
			return
		}
	}
	if len(failed) > 0 {
		p.stop(rolloutFailed{strings.Join(failed, "; ")})
		return
	}
	p.stop(nil)
}

func (p *statusPrinter) stop(err error) {
	p.ended, p.end = true, err
	if p.onEnd != nil {
		p.onEnd()
	}
}

// outcome is the run's result once it has stopped: nil when every rollout
// followed finished, or when the run was stopped (--until, Ctrl-C) first.
func (p *statusPrinter) outcome() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.end
}

// blocker prints the deployment's blocker line, in the header's words
// after "why", when it names something else than the one printed before;
// its clock alone ("not ready for 3s", "4s") is no change. A finished
// rollout has none, and prints nothing for it.
func (p *statusPrinter) blocker(d cluster.DeploymentSummary, key string, at time.Time) {
	why := p.cluster.Blocker(d.Namespace, d.Name, at)
	if cluster.SameBlocker(p.why[key], why) {
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
	p.ran++
	fmt.Fprintf(p.out, "[%s] action %s %s: %s\n", p.stamp(at), kind, target, result)
}

// rolloutFailed is a followed rollout that failed: exit 1, as kubectl
// rollout status does, with its words.
type rolloutFailed struct{ why string }

func (r rolloutFailed) Error() string { return r.why }

// notFound is kubectl's answer for a deployment that is not there, with
// what is there when known.
func notFound(namespace, name string, have []string) error {
	msg := fmt.Sprintf("deployments.apps %q not found in namespace %q", name, namespace)
	if len(have) > 0 {
		msg += " (there: " + strings.Join(have, ", ") + ")"
	}
	return errors.New(msg)
}
