package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// consoleProfileEnv names a file for a CPU profile of the console, written
// when it quits with a heap profile beside it (the name + ".heap"): how the live console's cost per watch event is found
// (test/e2e/cmd/sidebyside -profile sets it). An environment variable, not a
// flag, so that no operator meets it in --help.
const consoleProfileEnv = "ROLLSCOPE_CPUPROFILE"

// startConsoleProfile starts the profile when asked; stop writes it.
func startConsoleProfile() (stop func(), err error) {
	path := os.Getenv(consoleProfileEnv)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", consoleProfileEnv, path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting the CPU profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		// And what the heap holds at the end, beside it: what the
		// console's peak RSS is made of.
		if h, err := os.Create(path + ".heap"); err == nil {
			_ = pprof.Lookup("heap").WriteTo(h, 0)
			h.Close()
		}
	}, nil
}
