// Command buildargo builds Argo Rollouts' controller and kubectl plugin
// (test/argo) into their cache with Argo's CRDs beside them, or reports that
// they are already there, before the tests that run them (test/e2e/argo)
// start. Run it from test/e2e:
//
//	go run ./cmd/buildargo
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"rollscope/test/e2e/argobuild"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := argobuild.Ensure(ctx, func(line string) { fmt.Fprintln(os.Stderr, line) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "buildargo: %v\n", err)
		os.Exit(1)
	}
	state := "cached"
	if b.Built {
		state = "built"
	}
	fmt.Printf("%s Argo Rollouts %s controller, kubectl plugin and CRDs at %s (%s)\n", state, argobuild.Version, b.Dir, b.Took.Round(1e6))
}
