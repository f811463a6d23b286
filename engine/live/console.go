package live

import (
	"context"
	"fmt"
	"os"
	"sync"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/canary"
	"rollscope/engine/control"
	"rollscope/engine/drain"
	"rollscope/engine/noderoll"
	"rollscope/engine/rollingupdate"
	"rollscope/model"
)

// CanaryHolder is the name this console drives canaries under: its host
// and process, so that two consoles — even on one machine — never both
// drive one canary, and a console started again takes over once the lease
// of the one it replaces has lapsed.
func CanaryHolder() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("rollscope@%s/%d", host, os.Getpid())
}

// StartConsoleControllers runs, until stop is called or ctx ends, the
// controllers that carry out what the console's keys ask of a live
// cluster: the node keys write drain and roll requests on the nodes, the
// ReplicationController view writes rolling update requests on the
// controllers, and a guided canary's steps live on its Deployment (the
// embedded cluster runs its own). One runner serves all four, so their
// caches are shared, and trimmed to what they read. Requests left by an earlier rollscope
// are picked up where they were. metrics reads a canary's metric gates.
// stop ends them and waits.
func StartConsoleControllers(ctx context.Context, client kubernetes.Interface, metrics canary.Metrics) (stop func(), err error) {
	r, err := NewScopedRunner(client, consoleScope, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot start the drain, node-roll, rolling-update and canary controllers: %w", err)
	}
	r.Add(drain.New(r.Env("drain-controller")))
	// A live cluster's node groups are not rollscope's: no group specs.
	r.Add(noderoll.New(r.Env("node-roll-controller"), nil))
	r.Add(rollingupdate.NewController(r.Env("rolling-update")))
	r.Add(canary.New(r.Env("canary-controller"), CanaryHolder(), metrics))
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Run only fails when the caches never sync, which only happens
		// when ctx ends: the watch banner reports a broken connection.
		_ = r.Run(ctx)
	}()
	wg.Go(func() {
		// Best effort: where the list or a label is refused, a canary an
		// earlier rollscope left is driven only by that rollscope, while
		// it runs; nothing else changes.
		_, _ = canary.LabelEarlierCanaries(ctx, client, "")
	})
	return func() { cancel(); wg.Wait() }, nil
}

// consoleScope is what the console's controllers watch: everything they
// read, trimmed, and the kinds a rollout writes many times a second only
// while they have work that reads them.
var consoleScope = Scope{Trim: true, PodsNeeded: consoleNeedsPods, ReplicaSetsNeeded: consoleNeedsReplicaSets,
	DeploymentsNeeded: consoleNeedsDeployments}

// consoleNeedsDeployments says whether the console's controllers have work
// that reads every Deployment: a node roll request on a node (a roll waits
// for each Deployment to be available between nodes). A canary reads only
// its own, which the runner watches all along by its label; every other
// Deployment's status writes while a fleet rolls are not watched until a
// roll appears. It reads nodes only: Deployments are what it decides on.
func consoleNeedsDeployments(l control.Listers) bool {
	nodes, _ := l.Nodes.List(labels.Everything())
	for _, n := range nodes {
		if _, rolling := n.Annotations[model.RollAnnotation]; rolling {
			return true
		}
	}
	return false
}

// consoleNeedsReplicaSets says whether the console's controllers have work
// that reads ReplicaSets: a canary on a Deployment, or a node roll (which
// waits for every ownerless ReplicaSet to be available between nodes).
// Every rollout writes its ReplicaSets' status many times a second: until
// one of these appears the controllers do not watch them.
func consoleNeedsReplicaSets(l control.Listers) bool {
	return consoleNeedsDeployments(l) || anyCanary(l)
}

// anyCanary reports whether a Deployment has a canary's annotations: of
// those the runner watches, which are all of them only while a node roll
// is on, and the canaries' the rest of the time.
func anyCanary(l control.Listers) bool {
	deployments, _ := l.Deployments.List(labels.Everything())
	for _, d := range deployments {
		if model.HasCanaryAnnotations(d) {
			return true
		}
	}
	return false
}

// consoleNeedsPods says whether the console's controllers have work that
// reads pods: a drain not over (a node roll drains its nodes through the
// same annotations) or a canary on a Deployment. An RC rolling update
// reads its pods from the API server, and a node roll reads only nodes,
// Deployments and ReplicaSets. Until one of these appears the console's controllers
// watch no pods at all.
func consoleNeedsPods(l control.Listers) bool {
	nodes, _ := l.Nodes.List(labels.Everything())
	for _, n := range nodes {
		if _, requested := n.Annotations[model.DrainRequestAnnotation]; requested && !model.DrainOver(n.Annotations[model.DrainStateAnnotation]) {
			return true
		}
	}
	return anyCanary(l)
}
