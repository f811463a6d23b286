package flightrec

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/canary"
	"rollscope/engine/embedded"
	"rollscope/engine/nodegroup"
	"rollscope/engine/sim"
	"rollscope/internal/embeddedfleet"
	"rollscope/kube/recording"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
	"rollscope/ui"
)

// Fork starts the embedded cluster a replay forks into at at (rehearse
// from here, F5): the recorded objects at that moment loaded into a
// kube/memapi on a virtual clock standing at it, every controller running
// on them (embedded.Fork). The clock stays stopped until the caller runs
// it.
func Fork(ctx context.Context, tape *recording.Tape, at time.Time, o embedded.Options) (*embedded.Cluster, error) {
	objs := tape.ObjectsAt(at)
	if len(objs) == 0 {
		return nil, fmt.Errorf("cannot rehearse from %s: the recording holds no object by then", at.Format(time.TimeOnly))
	}
	return embedded.Fork(ctx, objs, at, tape.Header.Namespace, embeddedfleet.Backend, o)
}

// Console runs a console as cmd's runConsole does (internal/console.Run).
type Console = func(context.Context, ui.Options, Feed) (ui.Switch, bool, error)

// Act gives a rehearsal's console its action keys on client, as cmd's
// action flags set them for the embedded cluster.
type Act = func(opts *ui.Options, client kubernetes.Interface, now func() time.Time, live bool, groups []nodegroup.Group, metrics canary.Metrics)

// RunReplay opens the console on the recording at path (Replay) until the
// operator quits; F5 forks it at the moment shown into an embedded
// rehearsal (Fork) that the console then runs, every action key on, with
// its header saying where it was forked.
func RunReplay(ctx context.Context, path, at string, speed float64, base ui.Options, run Console, act Act) error {
	opts, feed, p, err := replay(path, at, speed, base)
	if err != nil {
		return badInput{err}
	}
	next, again, err := run(ctx, opts, feed)
	if err != nil || !again || !next.Rehearse {
		return err
	}
	forkedAt := p.Now()
	cl, err := Fork(ctx, p.Tape(), forkedAt, embedded.Options{})
	if err != nil {
		return err
	}
	defer cl.Runner.Close()
	return rehearse(ctx, cl, forkedAt, max(p.Speed(), 1), next, base, run, act)
}

// rehearse runs the console on a forked cluster, in real time × speed,
// starting again on another scope when the operator switches (:ns, 0).
func rehearse(ctx context.Context, cl *embedded.Cluster, forkedAt time.Time, speed float64, scope ui.Switch, base ui.Options, run Console, act Act) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	clock := cl.Clock()
	clock.SetSpeed(speed)
	go cl.Runner.RunRealtime(ctx)
	fleet := false // a namespace scope the operator switched to shows its fleet
	for {
		opts := base
		opts.Cluster, opts.ShowFleet = cluster.NewCluster(), fleet
		opts.Namespace, opts.AllNamespaces, opts.Context = scope.Namespace, scope.AllNamespaces, "embedded"
		opts.Clock, opts.Embedded, opts.Logs, opts.ForkedAt = clock.Now, sim.NewControls(cl.Runner, speed), cl.Logs, forkedAt
		act(&opts, cl.Client, clock.Now, false, nil, nil)
		var target watch.Target
		target, opts.PodEvents = watch.Target{Client: cl.Client, Scope: watch.ScopeOf(opts.Namespace, opts.AllNamespaces)}.Describing()
		feed := func(ctx context.Context, send func(tea.Msg)) {
			watch.RunEach(ctx, clock, func(b cluster.Batch) { send(b) }, target)
		}
		next, again, err := run(ctx, opts, feed)
		if err != nil || !again {
			return err
		}
		if next.Namespace == "" {
			next.Namespace = scope.Namespace
		}
		scope, fleet = next, next.Fleet
	}
}
