// Package flightrec is cmd's wiring of the flight recorder: a console, a
// --plain follower or `rollscope record` recording what it is sent
// (kube/recording's Writer), and `rollscope replay` opening the console on
// a recording (its Player). docs/recording.md tells the design.
package flightrec

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/kube/connect"
	"rollscope/kube/recording"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
	rec "rollscope/model/recording"
	"rollscope/ui"
)

// Feed is a console's watches, sending to it (cmd's runConsole).
type Feed = func(context.Context, func(tea.Msg))

// Recorder records one cluster's batches and the console's actions on it.
// A nil Recorder records nothing, so that the wiring reads the same with
// and without --record-to.
type Recorder struct {
	w          *recording.Writer
	path, user string
	// scope is what the recording holds, once begun; stopped says why it
	// ended before the command did (leave), "" while it records.
	scope   *recorded
	stopped string
}

// Open starts a recording at path, or returns nil when path is "". A path
// that cannot be written is refused now. user is the kubeconfig user the
// console acts as.
func Open(path string, env bool, user string) (*Recorder, error) {
	if path == "" {
		return nil, nil
	}
	w, err := recording.Create(path, env)
	if err != nil {
		return nil, err
	}
	return &Recorder{w: w, path: path, user: user}, nil
}

// Console records the console opts opens: the batches feed sends it about
// its first cluster, and the actions it sends there (its timeline's
// action lines, with the kubeconfig user). A console started again on a
// scope that does not cover the recording's ends it (leave).
func (r *Recorder) Console(opts *ui.Options, feed Feed) Feed {
	if r == nil {
		return feed
	}
	r.leave(opts)
	if r.stopped != "" {
		opts.ScopeNote = strings.TrimPrefix(opts.ScopeNote+"; "+r.stopped, "; ")
		return feed
	}
	if err := r.begin(opts.Context, opts.Namespace, opts.AllNamespaces, opts.Clock); err != nil {
		return feed
	}
	if c, ok := opts.Cluster.(*cluster.Cluster); ok {
		opts.Cluster = &acting{Cluster: c, w: r.w}
	}
	if opts.Embedded != nil {
		opts.Embedded = &pausing{EmbeddedControls: opts.Embedded, w: r.w}
	}
	name := opts.Context
	return func(ctx context.Context, send func(tea.Msg)) {
		feed(ctx, func(msg tea.Msg) {
			if b, ok := msg.(cluster.Batch); ok && (b.Cluster == "" || b.Cluster == name) {
				r.w.Batch(b)
			}
			send(msg)
		})
	}
}

// Watch is the console's watch of t: pods' Normal events only for the pod
// whose detail is open (opts.PodEvents, kube/watch.PodEvents), and across
// every namespace only the pods the console asks for (opts.Pods,
// kube/watch.PodNamespaces) — unless the console records, which keeps them
// all.
func (r *Recorder) Watch(opts *ui.Options, t watch.Target) watch.Target {
	if r == nil {
		t, opts.PodEvents = t.Describing()
		t, opts.Pods = t.ChoosingPods()
	}
	return t
}

// Batches records every batch handed to send: a --plain follower's or a
// headless recorder's watch of one cluster, whose clock is clock (nil:
// the wall clock, a live cluster's).
func (r *Recorder) Batches(context, namespace string, clock func() time.Time, send func(cluster.Batch)) func(cluster.Batch) {
	if r == nil || r.begin(context, namespace, namespace == "", clock) != nil {
		return send
	}
	return func(b cluster.Batch) {
		r.w.Batch(b)
		send(b)
	}
}

func (r *Recorder) begin(context, namespace string, all bool, clock func() time.Time) error {
	h := rec.Header{Context: context, User: r.user}
	if !all {
		h.Namespace = namespace
	}
	if clock != nil {
		h.Started = clock()
	}
	if err := r.w.Begin(h, clock); err != nil {
		return err
	}
	if r.scope == nil {
		r.scope = &recorded{context: context, namespace: namespace, all: all}
	}
	return nil
}

// Close ends the recording.
func (r *Recorder) Close() error {
	if r == nil {
		return nil
	}
	return r.w.Close()
}

// acting is the console's picture with its actions recorded as they are
// put on its timeline.
type acting struct {
	*cluster.Cluster
	w *recording.Writer
}

func (a *acting) AddAction(namespace, name string, e cluster.TimelineEntry) {
	a.Cluster.AddAction(namespace, name, e)
	a.w.Action(namespace, name, e)
}

// pausing is the embedded clock's controls with each pause marked in the
// recording: a replay sent to that second shows the picture the operator
// stopped on, not the second's end.
type pausing struct {
	ui.EmbeddedControls
	w *recording.Writer
}

func (p *pausing) SetPaused(paused bool) {
	was := p.EmbeddedControls.Paused()
	p.EmbeddedControls.SetPaused(paused)
	if paused && !was {
		p.w.Paused()
	}
}

// Record watches the cluster conn reaches, in namespace ("" for all of
// them), recording every batch until ctx ends: `rollscope record`.
func Record(ctx context.Context, conn *connect.Connection, namespace string, r *Recorder) error {
	send := r.Batches(conn.Context, namespace, nil, func(cluster.Batch) {})
	err := watch.New(conn.Client, watch.Scope{Namespace: namespace}, nil, send,
		watch.Options{Probe: watch.ReadyzProbe(conn.Client), Config: conn.RESTConfig()}).Run(ctx)
	closed := r.Close()
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return closed
}
