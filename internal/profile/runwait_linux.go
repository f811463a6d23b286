package profile

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// runQueueWait is how long the process's threads have waited, runnable, for
// a processor the kernel gave to something else: the second figure of each
// /proc/self/task/TID/schedstat. A thread that ends between two reads takes
// its whole share with it, so a difference is short of the truth, and may
// even fall below zero (the key's line then says 0).
func runQueueWait() time.Duration {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}
