package live

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/drain"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/engine/play"
	"rollscope/engine/rollingupdate"
	"rollscope/engine/scenario"
	"rollscope/model"
)

// Simulation plays a scenario on a live cluster in real time: its objects
// in a fresh namespace, its scripted actions at their times through the
// same code as the embedded cluster (engine/play), the real controller
// manager doing the rolling, and by default the scenario's node groups as
// hollow nodes that run its pods with the scenario's image behaviour.
type Simulation struct {
	Scenario *scenario.Scenario
	// HollowNodes runs the scenario's node groups as hollow nodes and keeps
	// its pods on them; without, the cluster's own nodes run the pods.
	HollowNodes bool
	// ExitStatus makes Play answer as `kubectl rollout status` at the end:
	// an error when a rollout failed or had not finished
	// (play.RolloutsFinished), for `simulate --exit-status`.
	ExitStatus bool
	// Until stops the run after this much wall time; 0 runs until every
	// rollout has finished.
	Until time.Duration
	// Epoch is where the run's times count from: Observe, OnAction and Play
	// give Epoch plus the wall time since the scenario's objects were
	// created, so that a trace reads as an embedded one does.
	Epoch time.Time
	// Observe sees every change in the run's namespace and to its hollow
	// nodes (under the scenario's node and group names) from Begin until
	// Play returns. It is called from several goroutines.
	Observe Observer
	// OnAction is told the target and result of every scripted action.
	OnAction func(at time.Time, kind, target, result string)
	// Progress hears what setup and cleanup are doing, one line at a time.
	Progress func(line string)
	// OnError hears about failed controller syncs of the hollow nodes,
	// drains and rolls; they are retried with back-off either way.
	OnError func(controller, key string, err error)
	// Rand picks the run's id; nil uses a random one.
	Rand *rand.Rand
	// Seed, when not 0, stands for the scenario's: the hollow kubelets
	// draw their jitter from it, as an embedded run with it does.
	Seed int64
	// ReadyTimeout bounds each wait of the setup (the namespace's service
	// account, the hollow nodes); 0 means 2 minutes.
	ReadyTimeout time.Duration
}

// Run is one simulation on a cluster, from Start to Cleanup.
type Run struct {
	sim    *Simulation
	client kubernetes.Interface
	// Namespace is the run's fresh namespace.
	Namespace string
	names     hollowNames
	groups    []nodegroup.Group // the hollow groups, as the cluster names them
	nodes     Nodes
	runner    *Runner
	runCtx    context.Context // lasts until Cleanup stops the run's watches
	stop      context.CancelFunc
	done      chan error
	// madeNamespace and nodesStarted say what Cleanup has to remove.
	madeNamespace, nodesStarted bool

	mu    sync.Mutex
	start time.Time
	ended bool
}

// settleTime is how long a run must look finished, with every cache caught
// up with the API, before it ends: a write that has just been made reaches
// the informers within milliseconds, and the controllers' answers to it
// within a second.
const settleTime = time.Second

// checkEvery is how often a running simulation looks at whether it has
// finished.
const checkEvery = 200 * time.Millisecond

// Start prepares a run: the namespace, its default service account, the
// hollow nodes Ready. The run is returned even with an error: Cleanup
// removes whatever Start made before it failed.
func (s *Simulation) Start(ctx context.Context, client kubernetes.Interface) (*Run, error) {
	rng := s.Rand
	if rng == nil {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	id := runID(rng)
	r := &Run{sim: s, client: client, Namespace: NamespaceFor(s.Scenario.Name, id), done: make(chan error, 1)}
	r.names = newHollowNames(id, r.Namespace, s.Scenario.NodeGroups)
	if s.HollowNodes {
		r.groups = r.names.Groups(s.Scenario.NodeGroups)
	}
	r.nodes = Nodes{Groups: r.groups, Images: s.Scenario.Images, OnError: s.OnError}
	return r, r.setUp(ctx)
}

func (r *Run) setUp(ctx context.Context) error {
	for _, g := range r.groups {
		// The group's name is the value of its nodes' group label.
		if errs := validation.IsValidLabelValue(g.Name); len(errs) > 0 {
			return fmt.Errorf("node group %q runs as hollow group %q, which is not a valid label value (%s): shorten the group's name", strings.TrimPrefix(g.Name, r.names.prefix), g.Name, strings.Join(errs, "; "))
		}
	}
	if err := r.mayCreate(ctx); err != nil {
		return err
	}
	ns := r.namespaceObject()
	if _, err := r.client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating namespace %s: %w", r.Namespace, err)
	}
	r.madeNamespace = true
	if err := r.waitFor(ctx, "the default service account of namespace "+r.Namespace, func(ctx context.Context) (bool, error) {
		_, err := r.client.CoreV1().ServiceAccounts(r.Namespace).Get(ctx, "default", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	}); err != nil {
		return err
	}

	// The run watches its own namespace and its own nodes only: another
	// run's drain or roll controller must not act on this run's nodes.
	// It follows StatefulSets and DaemonSets with their ControllerRevisions,
	// so the trace has their lines and the run ends when they are done.
	scope := Scope{Namespace: r.Namespace, NodeSelector: labels.Set{LabelSimulation: r.Namespace}.String(), Workloads: true,
		Seed: cmp.Or(r.sim.Seed, r.sim.Scenario.Seed)}
	runner, err := NewScopedRunner(r.client, scope, r.sim.OnError)
	if err != nil {
		return err
	}
	r.runner = runner
	// A scenario's setImage or abort on a ReplicationController asks this
	// controller for the rolling update.
	runner.Add(rollingupdate.NewController(runner.Env("rolling-update")))
	if r.sim.HollowNodes {
		r.nodes.AddTo(runner)
		runner.Add(drain.New(runner.Env("drain-controller")))
		runner.Add(noderoll.New(runner.Env("node-roll-controller"), r.groups))
	}
	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	r.stop, r.runCtx = stop, runCtx
	r.nodesStarted = len(r.groups) > 0
	go func() { r.done <- runner.Run(runCtx) }()
	select {
	case <-runner.Synced():
	case err := <-r.done:
		r.done <- err
		return fmt.Errorf("watching namespace %s: %w", r.Namespace, err)
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	if len(r.groups) == 0 {
		r.progress("simulating in namespace %s on the cluster's own nodes", r.Namespace)
		return nil
	}
	r.progress("simulating in namespace %s; starting %d hollow nodes", r.Namespace, r.nodeCount())
	return r.waitFor(ctx, "the hollow nodes to be Ready", func(context.Context) (bool, error) {
		return r.nodesReady(), nil
	})
}

// ErrForbidden wraps the API's refusal to create what a run needs: a
// namespace, or the Node objects of its hollow nodes.
var ErrForbidden = errors.New("forbidden")

// mayCreate asks the API, with dry-run creates that persist nothing,
// whether the run may create its namespace and its hollow nodes, so that a
// user who may not is refused before anything exists.
func (r *Run) mayCreate(ctx context.Context) error {
	dry := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	if _, err := r.client.CoreV1().Namespaces().Create(ctx, r.namespaceObject(), dry); err != nil {
		if apierrors.IsForbidden(err) {
			err = forbidden{err}
		}
		return fmt.Errorf("creating namespace %s: %w", r.Namespace, err)
	}
	if len(r.groups) == 0 {
		return nil
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: r.names.prefix + "dry-run", Labels: map[string]string{LabelSimulation: r.Namespace}}}
	if _, err := r.client.CoreV1().Nodes().Create(ctx, node, dry); err != nil {
		if apierrors.IsForbidden(err) {
			err = forbidden{err}
		}
		return fmt.Errorf("creating hollow nodes: %w", err)
	}
	return nil
}

// forbidden is the API's refusal, which is ErrForbidden.
type forbidden struct{ error }

func (forbidden) Is(target error) bool { return target == ErrForbidden }
func (f forbidden) Unwrap() error      { return f.error }

// namespaceObject is the run's namespace: the labels and annotations the
// scenario declares on its own namespace (a kind: Namespace named like it),
// and the run's mark.
func (r *Run) namespaceObject() *corev1.Namespace {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: r.Namespace, Labels: map[string]string{}}}
	for _, obj := range r.sim.Scenario.Objects {
		if declared, ok := obj.(*corev1.Namespace); ok && declared.Name == r.sim.Scenario.Namespace {
			for k, v := range declared.Labels {
				ns.Labels[k] = v
			}
			ns.Annotations = declared.Annotations
		}
	}
	ns.Labels[LabelSimulation] = r.Namespace
	return ns
}

// waitFor polls cond until it holds, ctx ends or the setup timeout passes.
func (r *Run) waitFor(ctx context.Context, what string, cond wait.ConditionWithContextFunc) error {
	timeout := r.sim.ReadyTimeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	var last error
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		ok, err := cond(ctx)
		if err != nil {
			// Errors are retried: the API may be briefly unavailable.
			last = err
			return false, nil
		}
		return ok, nil
	})
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case last != nil:
		return fmt.Errorf("waiting for %s: not there after %v: %w", what, timeout, last)
	}
	return fmt.Errorf("waiting for %s: not there after %v", what, timeout)
}

func (r *Run) nodeCount() int {
	n := 0
	for _, g := range r.groups {
		n += g.Size
	}
	return n
}

// nodesReady: every hollow group has its size in Ready nodes without the
// not-ready taint, so the first pods are not scheduled onto a booting node.
func (r *Run) nodesReady() bool {
	ready := map[string]int{}
	nodes, _ := r.runner.Listers().Nodes.List(everything())
	for _, n := range nodes {
		if model.NodeReady(n) && !notReadyTaint(n) {
			ready[nodegroup.GroupOf(n)]++
		}
	}
	for _, g := range r.groups {
		if ready[g.Name] < g.Size {
			return false
		}
	}
	return true
}

// notReadyTaint is not readiness: a node's Ready condition turns True before
// the node lifecycle takes off its node.kubernetes.io/not-ready taint, and
// until then the scheduler keeps pods off it, so a run waits for both.
func notReadyTaint(n *corev1.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == corev1.TaintNodeNotReady {
			return true
		}
	}
	return false
}

func (r *Run) progress(format string, args ...any) {
	if r.sim.Progress != nil {
		r.sim.Progress(fmt.Sprintf(format, args...))
	}
}

// player performs the scenario's actions in the run's namespace. Drains and
// node rolls act on the run's hollow nodes; without them there is no node
// of the scenario to act on.
func (r *Run) player() play.Player {
	p := play.Player{Client: r.client, Namespace: r.Namespace, OneNamespace: true, Now: time.Now}
	if r.sim.HollowNodes {
		p.Node, p.Group = r.names.Node, r.names.Group
		return p
	}
	noNodes := func(name string) (string, error) {
		return "", fmt.Errorf("%q is a node of the scenario, which runs on the cluster's own nodes with --no-hollow-nodes: drains and node rolls are %w live without hollow nodes", name, play.ErrNotSupported)
	}
	p.Node, p.Group = noNodes, noNodes
	return p
}

func everything() labels.Selector { return labels.Everything() }
