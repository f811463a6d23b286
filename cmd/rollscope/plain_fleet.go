package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/connect"
	"rollscope/kube/memapi"
	kubewatch "rollscope/kube/watch"
	"rollscope/model/cluster"
)

// --plain for a fleet (-A, or no workload named in a scope of several): one
// line per workload whose rollout state changes, cluster.FleetLine after a
// stamp, and first one for each workload once the watch has listed them.
// It follows for as long as it is let (Ctrl-C; --until on the embedded
// cluster) and exits 0 then: a fleet has no end of its own.

// fleetPrinter prints the fleet's state changes.
type fleetPrinter struct {
	mu        sync.Mutex // the watch and the embedded runner both print
	out       io.Writer
	namespace string // "" for every namespace
	stamp     func(time.Time) string
	cluster   *cluster.Cluster
	last      map[string]string // namespace/kind/name → its last state word
	started   bool
	errOut    io.Writer
	watched   cluster.WatchStatus
}

func newFleetPrinter(out, errOut io.Writer, namespace string, stamp func(time.Time) string) *fleetPrinter {
	return &fleetPrinter{out: out, errOut: errOut, namespace: namespace, stamp: stamp, cluster: cluster.NewCluster(), last: map[string]string{}}
}

func (p *fleetPrinter) batch(b cluster.Batch) {
	p.watchChanged(b)
	changed := p.cluster.Apply(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !b.Watch.Synced || (!changed && p.started) {
		return
	}
	p.started = true
	rows := p.cluster.Fleet(p.namespace, b.At)
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		key := r.Namespace + "/" + r.Ref()
		seen[key] = true
		if p.last[key] != r.Word {
			p.last[key] = r.Word
			fmt.Fprintf(p.out, "[%s] %s\n", p.stamp(b.At), cluster.FleetLine(r))
		}
	}
	for key := range p.last {
		if !seen[key] {
			delete(p.last, key)
			fmt.Fprintf(p.out, "[%s] %s deleted\n", p.stamp(b.At), key)
		}
	}
}

// watchChanged says on stderr when the lines stop being current and when
// they are again, as the one-deployment --plain does.
func (p *fleetPrinter) watchChanged(b cluster.Batch) {
	was, now := p.watched, b.Watch
	p.watched = now
	if p.errOut == nil || !now.Synced {
		return
	}
	if line := plainWatchLine(was, now); line != "" {
		p.mu.Lock()
		defer p.mu.Unlock()
		fmt.Fprintf(p.errOut, "[%s] rollscope: %s\n", p.stamp(b.At), line)
	}
}

// action prints a scripted action of the embedded cluster as it is sent.
func (p *fleetPrinter) action(at time.Time, kind, target, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "[%s] action %s %s: %s\n", p.stamp(at), kind, target, result)
}

// runFleetPlain follows the embedded cluster's fleet in namespace ("" for
// every one) until --until or Ctrl-C.
func runFleetPlain(ctx context.Context, out, banner io.Writer, f *rootFlags, sc *scenario.Scenario, namespace string) error {
	ctx, end := context.WithCancel(ctx)
	defer end()
	clk := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clk, Seed: seedOf(sc, f.seed)})
	p := newFleetPrinter(out, nil, namespace, func(at time.Time) string { return fmt.Sprintf("%7.1fs", at.Sub(epoch).Seconds()) })
	cl, err := embedded.Start(ctx, api, clk, sc, embedded.Options{Seed: f.seed, OnAction: p.action})
	if err != nil {
		return usageError{err}
	}
	endAtUntil(cl, f.until, end)
	fmt.Fprintf(banner, "rollscope: embedded cluster, scenario %q at %gx real time, %s (Ctrl-C to stop)\n", sc.Name, f.speed, scopeWords(namespace))
	// A batch every tenth of a virtual second, so that the stamps say when
	// each change happened; the watch outlives the run by a moment on a
	// stopped clock so that the last changes are printed too.
	interval := min(max(time.Duration(float64(100*time.Millisecond)/f.speed), time.Millisecond), kubewatch.DefaultInterval)
	watching, stopWatching := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() {
		done <- kubewatch.New(api.Client(), kubewatch.Scope{Namespace: namespace}, clk, p.batch, kubewatch.Options{Interval: interval}).Run(watching)
	}()
	clk.SetSpeed(f.speed)
	cl.Runner.RunRealtime(ctx)
	clk.SetSpeed(0)
	time.Sleep(3 * interval)
	stopWatching()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// runLiveFleetPlain follows a live cluster's fleet until Ctrl-C. all is -A:
// a user who may not list every namespace gets the kubeconfig's, and the
// line that says so on stderr.
func runLiveFleetPlain(ctx context.Context, out, banner io.Writer, conn *connect.Connection, all bool) error {
	namespace := conn.Namespace
	if all {
		var note string
		if all, note = allNamespaces(ctx, conn); note != "" {
			fmt.Fprintln(banner, note)
		}
		if all {
			namespace = ""
		}
	}
	fmt.Fprintf(banner, "rollscope: watching %s of context %q (Ctrl-C to stop)\n", scopeWords(namespace), conn.Context)
	p := newFleetPrinter(out, banner, namespace, func(at time.Time) string { return at.Format("15:04:05") })
	err := kubewatch.New(conn.Client, kubewatch.Scope{Namespace: namespace}, nil, p.batch,
		kubewatch.Options{Probe: kubewatch.ReadyzProbe(conn.Client), Config: conn.RESTConfig()}).Run(ctx)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

func scopeWords(namespace string) string {
	if namespace == "" {
		return "every namespace"
	}
	return fmt.Sprintf("namespace %q", namespace)
}

// scenarioWorkloads counts the workloads the scenario creates in namespace
// ("" for all): --plain with none named follows the fleet when there are
// several.
func scenarioWorkloads(sc *scenario.Scenario, namespace string) int {
	n := 0
	for _, o := range sc.Objects {
		var ns string
		switch x := o.(type) {
		case *appsv1.Deployment:
			ns = x.Namespace
		case *appsv1.StatefulSet:
			ns = x.Namespace
		case *appsv1.DaemonSet:
			ns = x.Namespace
		case *corev1.ReplicationController:
			ns = x.Namespace
		default:
			continue
		}
		if namespace == "" || ns == namespace {
			n++
		}
	}
	return n
}

// liveWorkloads counts up to two workloads in namespace, enough to tell
// one from several; errors count nothing (the watch will say why).
func liveWorkloads(ctx context.Context, c kubernetes.Interface, namespace string) int {
	two := metav1.ListOptions{Limit: 2}
	n := 0
	if l, err := c.AppsV1().Deployments(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	if l, err := c.CoreV1().ReplicationControllers(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	if l, err := c.AppsV1().StatefulSets(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	if l, err := c.AppsV1().DaemonSets(namespace).List(ctx, two); err == nil {
		n += len(l.Items)
	}
	return n
}
