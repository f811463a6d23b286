// Package profile writes rollscope's CPU and heap profiles, for work on its
// performance: the console's when ROLLSCOPE_CPUPROFILE names a file, and a
// simulate's with its hidden --cpuprofile and --memprofile flags.
package profile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// ConsoleEnv names a file for a CPU profile of the console, written when it
// quits with a heap profile beside it (the name + ".heap"): how the live
// console's cost per watch event is found (test/e2e/cmd/sidebyside -profile
// sets it). An environment variable, not a flag, so that no operator meets
// it in --help.
const ConsoleEnv = "ROLLSCOPE_CPUPROFILE"

// Console starts the console's profile when ConsoleEnv asks for one; stop
// writes it.
func Console() (stop func(), err error) {
	path := os.Getenv(ConsoleEnv)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", ConsoleEnv, path, err)
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

// CPU starts a CPU profile into path; stop ends it and closes the file.
// create is the error of a path that cannot be created, for the caller to
// name its flag; err is the profiler's own refusal.
func CPU(path string) (stop func(), create, err error) {
	pf, create := os.Create(path)
	if create != nil {
		return nil, create, nil
	}
	if err := pprof.StartCPUProfile(pf); err != nil {
		pf.Close()
		return nil, nil, fmt.Errorf("starting the CPU profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		pf.Close()
	}, nil, nil
}

// Heap writes what is live on the heap now, after a collection, into path;
// create is as for CPU.
func Heap(path string) (create, err error) {
	pf, create := os.Create(path)
	if create != nil {
		return create, nil
	}
	defer pf.Close()
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(pf, 0); err != nil {
		return nil, fmt.Errorf("writing the heap profile: %w", err)
	}
	return nil, nil
}
