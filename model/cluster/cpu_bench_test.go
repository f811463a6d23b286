package cluster_test

import (
	"syscall"
	"testing"
	"time"
)

// cpuLoop runs op once per b.Loop iteration, numbered from 0, and
// reports its CPU time per op (cpu-ns/op) with the allocations. between,
// when not nil, runs before each op off the clock: neither its time nor
// its CPU is counted. Without it the CPU is read once around the whole
// loop, since a refresh that changed nothing costs less than reading it.
func cpuLoop(b *testing.B, between, op func(i int)) {
	b.ReportAllocs()
	var cpu time.Duration
	i := 0
	if between == nil {
		start := cpuTime()
		for b.Loop() {
			op(i)
			i++
		}
		cpu = cpuTime() - start
	} else {
		for b.Loop() {
			b.StopTimer()
			between(i)
			b.StartTimer()
			start := cpuTime()
			op(i)
			cpu += cpuTime() - start
			i++
		}
	}
	if i > 0 {
		b.ReportMetric(float64(cpu)/float64(i), "cpu-ns/op")
	}
}

// cpuTime is the process's user and system CPU so far. On the shared
// machine other processes stretch wall time; CPU time per op (cpu-ns/op)
// says what the work costs, the garbage collector's share included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
