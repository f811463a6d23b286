// Package embedded assembles rollscope's in-process Kubernetes: an API
// backend, the deterministic runner, every simulated controller, and a
// scenario's objects and scripted actions. `rollscope simulate` and the
// console both start the embedded cluster through Start.
package embedded

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/analysisrun"
	"rollscope/engine/canary"
	"rollscope/engine/control"
	"rollscope/engine/controllers"
	"rollscope/engine/disruption"
	"rollscope/engine/drain"
	"rollscope/engine/kubelet"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/engine/play"
	"rollscope/engine/podgc"
	"rollscope/engine/rollingupdate"
	"rollscope/engine/scenario"
	"rollscope/engine/scheduler"
	"rollscope/engine/sim"
)

// Backend is the in-memory API the cluster runs on (kube/memapi in rollscope).
type Backend interface {
	Client() kubernetes.Interface
	Subscribe(fn func(watch.Event)) (cancel func())
}

// ActionResult reports a scripted action once it has run.
type ActionResult func(now time.Time, kind, target, result string)

// EmbeddedCanaryHolder is the name the embedded cluster's canary controller
// drives canaries under: the only driver there is in the process.
const EmbeddedCanaryHolder = "rollscope-embedded"

// Cluster is a running embedded cluster.
type Cluster struct {
	Runner   *sim.Runner
	Client   kubernetes.Interface
	Scenario *scenario.Scenario
	// Logs are what the simulated containers wrote, for the console's
	// logs view.
	Logs     *kubelet.Logs
	clock    *sim.Clock
	onAction []ActionResult
	// acting counts scripted actions whose writes the runner's caches may
	// not hold yet: from the action's start until the runner has applied
	// what it wrote. Finished reads the caches from any goroutine, and an
	// action reports itself (OnAction) before the runner applies its
	// writes: without this, a run that had finished before a set image
	// could be judged finished again in between, and --plain exit 0.
	acting atomic.Int32
	// exitStatus: Run answers as `kubectl rollout status` (Options).
	exitStatus bool
}

// ReactionWindow is how often, at most, each embedded controller handles its
// queue (virtual time). A quarter of a second is within a real control
// plane's reaction time under load (watch delivery, work queue, API round
// trip), and it lets a 10,000-pod rollout coalesce pod churn into about a
// hundred ReplicaSet syncs instead of one per pod.
const ReactionWindow = 250 * time.Millisecond

// SimulationGCPercent is the garbage collector target `rollscope simulate`
// runs with. A full-speed run allocates gigabytes of short-lived copies (every
// write returns one, as a real client's decode would); collecting half as
// often cuts its wall time by about a tenth and keeps a 10,000-replica
// rollout near 500 MB, well inside its 1 GiB budget.
const SimulationGCPercent = 200

// Options tune Start.
type Options struct {
	// Seed overrides the scenario's seed when non-zero.
	Seed int64
	// Observers see every change from the first object on.
	Observers []sim.Observer
	// ChangeObservers do too, with the version each change replaced (the
	// trace).
	ChangeObservers []sim.ChangeObserver
	// OnAction is told the result of every scripted action.
	OnAction ActionResult
	// ExitStatus makes Run answer as `kubectl rollout status` would at the
	// end: an error (exit 1) when a rollout failed or had not finished
	// (play.RolloutsFinished), as `simulate --exit-status` asks.
	ExitStatus bool
	// RollingUpdate, when set, builds the rolling-update controller in
	// place of rollingupdate.NewController: a test that kills and restarts
	// it.
	RollingUpdate func(*control.Env) control.Controller
	// Headless says nothing but the run's own observers reads the cluster
	// (`simulate`): it keeps no container logs (Cluster.Logs is nil; it
	// shows none, and saves what 100,000 pods' logs hold), and Boot's
	// capacity check counts a replica at what its memory limit holds it
	// to, not with the console's picture of it.
	Headless bool
}

// Start registers the controllers, creates the scenario's objects and
// schedules its actions. The runner has not run yet: call Run or
// RunRealtime on c.Runner. An error means the scenario's objects could not
// all be created; nothing has run.
func Start(ctx context.Context, b Backend, clock *sim.Clock, sc *scenario.Scenario, o Options) (*Cluster, error) {
	seed := sc.Seed
	if o.Seed != 0 {
		seed = o.Seed
	}
	client := b.Client()
	r := sim.New(client, b, clock, seed)
	r.Window = ReactionWindow
	for _, obs := range o.Observers {
		r.Observe(obs)
	}
	for _, obs := range o.ChangeObservers {
		r.ObserveChanges(obs)
	}
	c := &Cluster{Runner: r, Client: client, Scenario: sc, clock: clock, exitStatus: o.ExitStatus}
	if !o.Headless {
		c.Logs = kubelet.NewLogs()
	}
	if o.OnAction != nil {
		c.onAction = append(c.onAction, o.OnAction)
	}
	for _, w := range controllers.All() {
		r.Add(w.New(r.Env(w.Name)))
	}
	r.Add(disruption.New(r.Env("disruption-controller")))
	r.Add(scheduler.New(r.Env("default-scheduler")))
	r.Add(kubelet.New(r.Env("kubelet"), sc.Images, kubelet.Options{Logs: c.Logs}))
	r.Add(nodegroup.New(r.Env("node-group-controller"), sc.NodeGroups))
	r.Add(podgc.New(r.Env("pod-garbage-collector")))
	r.Add(drain.New(r.Env("drain-controller")))
	r.Add(noderoll.New(r.Env("node-roll-controller"), sc.NodeGroups))
	r.Add(canary.New(r.Env("canary-controller"), EmbeddedCanaryHolder, analysisrun.SeriesMetrics(sc.Metrics)))
	r.Add(analysisrun.New(r.Env(analysisrun.Name), sc.Metrics))
	if o.RollingUpdate != nil {
		r.Add(o.RollingUpdate(r.Env("rolling-update")))
	} else {
		r.Add(rollingupdate.NewController(r.Env("rolling-update")))
	}

	// The cluster's nodes are there before its workloads, as in any
	// cluster one deploys to.
	if err := nodegroup.Register(ctx, client, sc.NodeGroups, clock.Now()); err != nil {
		r.Close()
		return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	if err := createObjects(ctx, client, sc); err != nil {
		r.Close()
		return nil, err
	}
	for _, a := range sc.Actions {
		a := a
		r.At(a.At, func() { c.runAction(ctx, a) })
	}
	return c, nil
}

// createObjects creates the scenario's namespace first — the one its
// objects declare, labels and annotations kept, when they declare it —
// then its objects in order.
func createObjects(ctx context.Context, client kubernetes.Interface, sc *scenario.Scenario) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: sc.Namespace}}
	objs := make([]runtime.Object, 0, len(sc.Objects))
	for _, obj := range sc.Objects {
		if declared, ok := obj.(*corev1.Namespace); ok && declared.Name == sc.Namespace {
			ns = declared.DeepCopy()
			continue
		}
		objs = append(objs, obj)
	}
	if err := play.Create(ctx, client, ns); err != nil {
		return fmt.Errorf("scenario %s: cannot create namespace %q: %w", sc.Name, sc.Namespace, err)
	}
	return play.CreateAll(ctx, client, sc.Name, objs)
}

// Finished reports whether every rollout in the cluster has finished or
// failed and nothing is in flight (play.Finished, shared with live runs):
// never while a scripted action's writes are on their way to the caches.
func (c *Cluster) Finished() bool {
	return c.acting.Load() == 0 && play.Finished(c.Runner.Listers(), c.Scenario.NodeGroups)
}

// Run runs the scenario at full speed until it is finished, until the
// limit, or until ctx ends, and returns the end reason; with
// Options.ExitStatus, an error when a rollout failed or had not finished.
func (c *Cluster) Run(ctx context.Context, until time.Duration) (string, error) {
	reason, err := c.Runner.Run(ctx, sim.RunOptions{Until: until, Finished: c.Finished})
	if err == nil && c.exitStatus && reason != sim.EndCanceled {
		err = play.RolloutsFinished(c.Runner.Listers())
	}
	return reason, err
}

// Elapsed is the virtual time since the start.
func (c *Cluster) Elapsed() time.Duration { return c.clock.Now().Sub(c.Runner.Start()) }
