// Command runcp starts the test control plane with hollow nodes and keeps it
// running until Ctrl-C, for trying rollscope against it by hand:
//
//	go run ./cmd/runcp -nodes 3
//	rollscope --kubeconfig /tmp/rollscope-controlplane-…/admin.kubeconfig
//
// It prints the admin and view-only kubeconfigs, and on exit stops every
// component, deletes the hollow nodes and removes the directory (unless
// -keep).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/cpbuild"
)

func main() {
	nodes := flag.Int("nodes", 3, "hollow nodes to run (0: none)")
	keep := flag.Bool("keep", false, "keep the directory with certificates, kubeconfigs and logs")
	flag.Parse()
	if err := run(*nodes, *keep); err != nil {
		fmt.Fprintf(os.Stderr, "runcp: %v\n", err)
		os.Exit(1)
	}
}

func run(nodeCount int, keep bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	say := func(line string) { fmt.Fprintln(os.Stderr, line) }
	bins, err := cpbuild.Ensure(ctx, say)
	if err != nil {
		return err
	}
	started := time.Now()
	cp, err := controlplane.Start(ctx, controlplane.Config{Binaries: bins, KeepDir: keep})
	if err != nil {
		return err
	}
	defer cp.Stop()
	say(fmt.Sprintf("control plane at %s, ready in %s; logs in %s/logs", cp.URL, time.Since(started).Round(time.Millisecond), cp.Dir))
	fmt.Printf("admin:     --kubeconfig %s\nview-only: --kubeconfig %s\n", cp.AdminKubeconfig, cp.ViewerKubeconfig)

	var hollowErr chan error
	group := live.Nodes{
		Groups: []nodegroup.Group{{
			Name:     "hollow",
			Size:     nodeCount,
			Spec:     "v1",
			BootTime: 2 * time.Second,
			Capacity: corev1.ResourceList{
				corev1.ResourcePods:   resource.MustParse("110"),
				corev1.ResourceCPU:    resource.MustParse("8"),
				corev1.ResourceMemory: resource.MustParse("32Gi"),
			},
		}},
		Images: []kubelet.ImageRule{{Match: "*", Pull: 2 * time.Second, Start: time.Second, Ready: 2 * time.Second, Jitter: time.Second}},
		OnError: func(c, key string, err error) {
			say(fmt.Sprintf("hollow %s %s: %v", c, key, err))
		},
	}
	if nodeCount > 0 {
		admin, err := cp.AdminClient()
		if err != nil {
			return err
		}
		hollowErr = make(chan error, 1)
		go func() { hollowErr <- group.Run(ctx, admin) }()
		defer func() {
			// Run has returned (ctx is done); the nodes would outlive the
			// control plane only with -keep, but tidy them all the same.
			cleanup, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := group.Delete(cleanup, admin); err != nil {
				say(err.Error())
			}
		}()
		say(fmt.Sprintf("running %d hollow nodes (group %q)", nodeCount, "hollow"))
	}
	say("Ctrl-C stops everything")
	<-ctx.Done()
	if hollowErr != nil {
		if err := <-hollowErr; err != nil {
			return fmt.Errorf("hollow nodes: %w", err)
		}
	}
	say("stopping")
	return nil
}
