// Command buildkubectl117 builds kubectl 1.17's rolling-update (test/kubectl117)
// into its cache, or reports that it is already there, before the tests that
// compare rollscope with it start. Run it from test/e2e:
//
//	go run ./cmd/buildkubectl117
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"rollscope/test/e2e/kubectlpeer"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bin, err := kubectlpeer.Ensure(ctx, func(line string) { fmt.Fprintln(os.Stderr, line) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "buildkubectl117: %v\n", err)
		os.Exit(1)
	}
	state := "cached"
	if bin.Built {
		state = "built"
	}
	fmt.Printf("%s kubectl %s at %s (%s)\n", state, kubectlpeer.Version, bin.Path, bin.Took.Round(1e6))
}
