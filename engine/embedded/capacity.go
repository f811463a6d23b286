package embedded

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"rollscope/engine/scenario"
)

// watchedPerReplica is about the peak RSS a replica costs a run that a
// console or --plain watches: the cluster's own (heapPerReplica) and every
// pod again in the watch's cache and the console's picture, with the
// collector at Go's default target and no memory limit (the console held
// 340 MB at the end of the 10,000-replica rollout and 2.0 GB at the end of
// the 100,000 one, about 20 KB a replica).
const watchedPerReplica = 22 << 10

// CheckCapacity refuses a scenario whose workloads ask for more replicas
// (as declared, or as a scale action takes them, and the surge of its
// scripted rollouts: asked) than a machine with
// available bytes of memory can hold: heapPerReplica
// each for a headless run (simulate, whose heap is held to that: about its
// peak RSS, 1.1 GB for 100,000 replicas), watchedPerReplica for one a
// console watches. Kubernetes has no replica limit below 2^31-1, so the
// only limit a rehearsal has is the machine's; a run past it would be
// killed for want of memory half way, saying nothing. available 0 (unknown)
// checks nothing.
func CheckCapacity(sc *scenario.Scenario, available uint64, headless bool) error {
	perReplica := uint64(watchedPerReplica)
	if headless {
		perReplica = heapPerReplica
	}
	n := declared(sc)
	what := fmt.Sprintf("asks for %d replicas", n.replicas)
	if len(sc.Clusters) > 0 {
		what = fmt.Sprintf("asks in its clusters for %d replicas", n.replicas)
	}
	if n.surge > 0 {
		what += fmt.Sprintf(" and %d more pods its rollouts bring up at once", n.surge)
	}
	if available == 0 || uint64(n.pods())*perReplica <= available {
		return nil
	}
	return &scenario.Error{File: sc.File, Message: fmt.Sprintf(
		"scenario %q %s; this machine can hold about %d (%.1f GB of memory available, about %d KiB a replica) — ask for fewer replicas or run on a machine with more memory",
		sc.Name, what, available/perReplica, float64(available)/1e9, perReplica>>10)}
}

// Room refuses replicas more than this process has the memory left to
// hold, at watchedPerReplica each: a scale the embedded cluster (in this
// process) would be killed half way through for want of memory, or a
// forecast's rehearsal of one on a copy (in this process too, whichever
// cluster the console shows). It reads what is available now, so the
// replicas the process already holds are counted. nil when it fits or the
// memory cannot be read.
func Room(replicas int) error {
	return room(replicas, MemoryAvailable())
}

func room(replicas int, available uint64) error {
	need := uint64(max(replicas, 0)) * watchedPerReplica
	if available == 0 || need <= available {
		return nil
	}
	return fmt.Errorf("%d more replicas need about %.1f GB of memory and this machine has %.1f GB available (about %d KiB a replica)",
		replicas, float64(need)/1e9, float64(available)/1e9, watchedPerReplica>>10)
}

// MemoryAvailable is the memory this process may still use: the kernel's
// MemAvailable, or what the cgroup's memory.max leaves above its
// memory.current if that is lower; 0 when neither can be read (not Linux).
func MemoryAvailable() uint64 {
	avail := meminfoAvailable()
	limit, okLimit := cgroupBytes("memory.max")
	used, okUsed := cgroupBytes("memory.current")
	if okLimit && okUsed {
		left := limit - min(used, limit)
		if avail == 0 || left < avail {
			avail = left
		}
	}
	return avail
}

// cgroupBytes is a byte count the process's cgroup (v2) file name holds;
// false when it cannot be read or says "max".
func cgroupBytes(name string) (uint64, bool) {
	b, err := os.ReadFile("/sys/fs/cgroup/" + name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}

// meminfoAvailable is /proc/meminfo's MemAvailable in bytes, 0 if unread.
func meminfoAvailable() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
