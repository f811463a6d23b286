// Command buildcp builds the pinned control plane (etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler) into the version-keyed cache, or
// reports that it is already there. Run it from test/e2e:
//
//	go run ./cmd/buildcp
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"rollscope/test/e2e/cpbuild"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bins, err := cpbuild.Ensure(ctx, func(line string) { fmt.Fprintln(os.Stderr, line) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "buildcp: %v\n", err)
		os.Exit(1)
	}
	state := "cached"
	if bins.Built {
		state = "built"
	}
	fmt.Printf("%s kubernetes %s, etcd %s in %s (%s)\n", state, bins.Versions.Kubernetes, bins.Versions.Etcd, bins.Dir, bins.Took.Round(1e6))
}
