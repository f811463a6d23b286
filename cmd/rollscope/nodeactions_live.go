package main

import (
	"context"
	"fmt"
	"maps"
	"sync"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/drain"
	"rollscope/engine/live"
	"rollscope/engine/noderoll"
	"rollscope/kube/access"
	"rollscope/ui"
)

// startNodeControllers runs the drain and node-roll controllers against a
// live cluster for as long as the console runs: the node keys only write
// requests on the nodes, and these carry them out (the embedded cluster
// runs its own). Requests left on the nodes by an earlier rollscope are
// picked up where they were. The returned stop ends them and waits.
func startNodeControllers(ctx context.Context, client kubernetes.Interface) (stop func(), err error) {
	r, err := live.NewRunner(client, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot start the drain and node-roll controllers: %w", err)
	}
	r.Add(drain.New(r.Env("drain-controller")))
	// A live cluster's node groups are not rollscope's: no group specs.
	r.Add(noderoll.New(r.Env("node-roll-controller"), nil))
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Run only fails when the caches never sync, which only happens
		// when ctx ends: the watch banner reports a broken connection.
		_ = r.Run(ctx)
	}()
	return func() { cancel(); wg.Wait() }, nil
}

// checkNodeAccess disables the node keys a live cluster will not allow,
// with the reason.
func (f *nodeFlags) checkNodeAccess(ctx context.Context, opts *ui.Options, client kubernetes.Interface) {
	if _, ok := opts.Actions.(ui.NodeActions); !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	denied := access.DeniedNodes(ctx, client, f.deleteNodes)
	if len(denied) == 0 {
		return
	}
	if opts.Denied == nil {
		opts.Denied = map[string]string{}
	}
	maps.Copy(opts.Denied, denied)
}
