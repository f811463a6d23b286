// Package livefleet wires a live console's clusters: each kubeconfig
// context, as it answers (kube/connect.Dialing), becomes the console's
// options for it (its picture, actions, RBAC, -A check and controllers)
// and its watch — the ones that answered first when the console opens, the
// others as they answer later (ui.Reached), so that no cluster slows or
// blocks the others. It is cmd's wiring, kept out of cmd.
package livefleet

import (
	"context"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/canary"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/kube/access"
	"rollscope/kube/connect"
	"rollscope/kube/podlogs"
	"rollscope/kube/prometheus"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
	"rollscope/ui"
	"rollscope/ui/plain"
)

// Connecting is what the fleet says of a cluster whose first try has not
// ended.
const Connecting = "connecting…"

// Wiring makes each connected context's console options and watch.
type Wiring struct {
	// Base is what every cluster's options start from: what the console
	// opens first, its theme and keys.
	Base ui.Options
	// All is -A; Contexts the kubeconfig's, for :ctx.
	All      bool
	Contexts []string
	// ReadOnly and DeleteNodes are --read-only and --delete-nodes, for
	// the RBAC check; Actions hands a cluster's options its actions on
	// its client (live, on the wall clock, no node groups of rollscope's),
	// a canary's metric gates read through metrics — as embeddedfleet's.
	ReadOnly, DeleteNodes bool
	Actions               func(o *ui.Options, c kubernetes.Interface, now func() time.Time, live bool, groups []nodegroup.Group, metrics canary.Metrics)
	// Watch makes a cluster's watch from its target and says so in its
	// options (flightrec.Recorder.Watch: pods' Normal events for the pod
	// described only, unless the console records).
	Watch func(opts *ui.Options, t watch.Target) watch.Target

	mu    sync.Mutex
	stops []func()
}

// gates reads a live canary's metric gates: from the Prometheus each
// names, for the plan's confirmation and for the controller that judges
// the steps alike.
var gates canary.Metrics = prometheus.Metrics{}

// member is conn's options and watch, its controllers started (unless
// --read-only) until Stop.
func (w *Wiring) member(ctx context.Context, conn *connect.Connection) (ui.Options, watch.Target, error) {
	opts := w.Base
	opts.Cluster = cluster.NewCluster().Named(conn.Context)
	opts.Namespace, opts.AllNamespaces, opts.Context, opts.Contexts = conn.Namespace, w.All, conn.Context, w.Contexts
	opts.Logs = podlogs.Source{Client: conn.Client}
	if w.All {
		opts.AllNamespaces, opts.ScopeNote = access.AllNamespacesOn(ctx, conn)
	}
	w.Actions(&opts, conn.Client, time.Now, true, nil, gates)
	// The embedded cluster has no RBAC; a live one may refuse keys.
	var err error
	if opts.Denied, err = access.OnConnection(ctx, conn, w.ReadOnly, w.DeleteNodes); err != nil {
		return opts, watch.Target{}, err
	}
	if !w.ReadOnly {
		client, err := watch.AppsFromWire(conn.Client, conn.RESTConfig())
		if err != nil {
			return opts, watch.Target{}, err
		}
		stop, err := live.StartConsoleControllers(ctx, client, gates)
		if err != nil {
			return opts, watch.Target{}, err
		}
		w.mu.Lock()
		w.stops = append(w.stops, stop)
		w.mu.Unlock()
	}
	target := watch.Target{Client: conn.Client, Scope: watch.ScopeOf(opts.Namespace, opts.AllNamespaces),
		Options: watch.Options{Probe: watch.ReadyzProbe(conn.Client), Config: conn.RESTConfig(), Cluster: conn.Context}}
	return opts, w.Watch(&opts, target), nil
}

// Open is the console's options and watches for the clusters it opens
// with (connect.Dialing.Start): those that answered, each wired at once
// beside the others; those tried and refused, with why and when; and
// those still connecting — the last two in the order named.
func (w *Wiring) Open(ctx context.Context, names []string, answered []*connect.Connection, tried []connect.Attempt, pending []string) (ui.Options, []watch.Target, error) {
	each, targets, errs := make([]ui.Options, len(answered)), make([]watch.Target, len(answered)), make([]error, len(answered))
	var wg sync.WaitGroup
	for i, conn := range answered {
		wg.Go(func() { each[i], targets[i], errs[i] = w.member(ctx, conn) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return ui.Options{}, nil, err
		}
	}
	opts := each[0]
	opts.Also = each[1:]
	for _, name := range names {
		for _, a := range tried {
			if a.Context == name {
				opts.Unreachable = append(opts.Unreachable, ui.Options{Context: name, Problem: a.Err.Error(), Tried: a.At})
			}
		}
		if slices.Contains(pending, name) {
			opts.Unreachable = append(opts.Unreachable, ui.Options{Context: name, Problem: Connecting})
		}
	}
	return opts, targets, nil
}

// Feed is what runs beside the console once it is open, until ctx (the
// console's) ends: the watches of the clusters it opened with, then each
// later try as it ends — a cluster that answers joins (ui.Reached, then
// its watch's batches), one that does not says why and when it was tried.
// send is the console's (tea.Program's Send).
func (w *Wiring) Feed(d *connect.Dialing, targets []watch.Target) func(ctx context.Context, send func(tea.Msg)) {
	return func(ctx context.Context, send func(tea.Msg)) {
		batches := func(b cluster.Batch) { send(b) }
		watch.RunEach(ctx, nil, batches, targets...)
		go func() {
			for {
				select {
				case a := <-d.Attempts():
					if a.Err != nil {
						send(ui.Reached{Options: ui.Options{Context: a.Context, Problem: a.Err.Error(), Tried: a.At}})
						continue
					}
					// Each cluster's checks beside the others'.
					go func() {
						opts, target, err := w.member(ctx, a.Conn)
						if err != nil {
							send(ui.Reached{Options: ui.Options{Context: a.Context, Problem: err.Error(), Tried: a.At}})
							return
						}
						// The news first, so that the cluster's batches
						// find it in the console.
						send(ui.Reached{Options: opts})
						watch.RunEach(ctx, nil, batches, target)
					}()
				case <-ctx.Done():
					return
				}
			}
		}()
	}
}

// Stop ends the controllers of every cluster wired.
func (w *Wiring) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, stop := range w.stops {
		stop()
	}
	w.stops = nil
}

// Arrivals are d's tries as --plain follows them (plain.Each).
func Arrivals(ctx context.Context, d *connect.Dialing) <-chan plain.Arrival[*connect.Connection] {
	out := make(chan plain.Arrival[*connect.Connection])
	go func() {
		for {
			select {
			case a := <-d.Attempts():
				select {
				case out <- plain.Arrival[*connect.Connection]{Context: a.Context, Conn: a.Conn, Err: a.Err}:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
