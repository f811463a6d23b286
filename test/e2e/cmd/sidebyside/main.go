// Command sidebyside measures the rollscope console beside k9s v0.50.9 on the
// test control plane (real kube-apiserver, kube-controller-manager and
// kube-scheduler, rollscope's hollow nodes): each console watches the same
// namespace in its own 200×50 tmux while a Deployment of N replicas rolls
// 25%/25% to a new image, and the command prints, for each console, the CPU
// seconds it used during the rollout (utime+stime), its peak RSS (VmHWM), the
// time to its first complete screen and how long after the API said the
// rollout was complete its screen said so. It also checks that rollscope's
// ReplicaSet rows equal the API's once the cluster has settled.
//
// It is run on demand, not by make test (it takes minutes):
//
//	# k9s v0.50.9 into ~/.cache/rollscope/k9s, outside the repository (the module
//	# proxy serves its source, though `go install …@v0.50.9` may be refused):
//	go mod download -json github.com/derailed/k9s@v0.50.9   # prints its Dir
//	cp -r DIR /tmp/k9s && chmod -R u+w /tmp/k9s && (cd /tmp/k9s && go build -o ~/.cache/rollscope/k9s/k9s .)
//	go run ./cmd/sidebyside -n 1000,3000
//	go run ./cmd/sidebyside -n '' -fleet 200x5/10   # the fleet (rollscope -A) beside k9s -A :deploy
//	go run ./cmd/sidebyside -n '' -fleet 700x5/10 -clusters 3   # rollscope over 3 clusters beside one per cluster
//
// -request-timeout 2s starts every console with --request-timeout 2s (k9s
// has the flag too), for the first list of a large namespace, which a
// timeout applied to it whole would cut off forever (k9s PR #4109).
//
// During each rollout, whenever the API's ReplicaSet rows have stood still
// for 700 ms, every row on rollscope's screen must be the API's; the table's
// last column counts those settled moments. A screen found behind is
// watched until it shows the API's rows, and the harness's own ReplicaSet
// watch says when the API server sent them (a console cannot show rows its
// watch has not brought): each such moment is printed after the table, and
// the command fails.
//
// -kubelet-events has the hollow kubelets record a real kubelet's Normal
// events, four a container, which the consoles that watch events then read.
//
// -nice N starts the control plane's components at niceness N, and
// -nodes-nice N runs the hollow nodes in a process of their own at niceness
// N: both below the consoles, as a cluster's machines are not its operator's.
//
// -others N first fills the rest of the cluster with N ready pods in
// namespaces of their own, created bound to the hollow nodes (others.go):
// with -fleet, the fleet of a cluster at Kubernetes' envelope, and then a
// workload opened from it.
//
// -baseline adds another rollscope binary (an older build, say) as one more
// console in the same rollouts; -record adds rollscope recording with
// --record-to, the flight recorder's cost beside the console without it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"rollscope/model"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/cpbuild"
)

func main() {
	home, _ := os.UserHomeDir()
	sizes := flag.String("n", "1000,3000", "replicas of each run, comma-separated")
	k9s := flag.String("k9s", filepath.Join(home, ".cache/rollscope/k9s/k9s"), "the k9s v0.50.9 binary; empty to measure rollscope alone")
	rollscope := flag.String("rollscope", "", "the rollscope binary (default: built from this repository)")
	baseline := flag.String("baseline", "", "other rollscope binaries (comma-separated) to run beside it, for before → after figures")
	flag.StringVar(&requestTimeout, "request-timeout", "", "pass --request-timeout to every console (e.g. 2s): a first list longer than it must still end")
	flag.StringVar(&profileDir, "profile", "", "write a CPU profile of each rollscope console to this directory")
	flag.BoolVar(&record, "record", false, "also run rollscope with --record-to, for the flight recorder's cost; the recording's size is printed")
	fleet := flag.String("fleet", "", "also measure the fleet: `rollscope -A` beside k9s -A :deploy while DEPLOYMENTSxREPLICAS/NAMESPACES (e.g. 200x5/10) Deployments roll at once")
	flag.IntVar(&apiQPS, "qps", 0, "the controller manager's and scheduler's request rate (default theirs: 20 and 50 a second); 200 creates 30,000 pods in minutes, not 25")
	flag.IntVar(&controlPlaneNice, "nice", 0, "run the control plane's components at this niceness (e.g. 10), below the consoles, as a cluster runs on other machines than its operator's console")
	flag.BoolVar(&kubeletEvents, "kubelet-events", false, "hollow kubelets record a real kubelet's Normal events (Pulling, Pulled, Created, Started) for each container, as on a real cluster; without, only Warnings")
	flag.IntVar(&clusters, "clusters", 1, "with -fleet: run the fleet in this many clusters, each its own control plane, and measure rollscope over all of them beside one rollscope per cluster")
	flag.IntVar(&others, "others", 0, "first fill the rest of the cluster with this many ready pods in other namespaces, created bound to the hollow nodes (e.g. 150000 with -fleet: the fleet of a cluster at Kubernetes' envelope)")
	flag.IntVar(&nodesNice, "nodes-nice", 0, "run the hollow nodes in a process of their own at this niceness (e.g. 10), below the consoles, as -nice does the control plane")
	flag.Parse()
	if n := os.Getenv(nodesEnv); n != "" {
		if err := serveNodes(n); err != nil {
			fmt.Fprintf(os.Stderr, "sidebyside (hollow nodes): %v\n", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*sizes, *k9s, *rollscope, *baseline, *fleet); err != nil {
		fmt.Fprintf(os.Stderr, "sidebyside: %v\n", err)
		os.Exit(1)
	}
}

// clusters is -clusters.
var clusters int

// apiQPS is -qps.
var apiQPS int

// controlPlaneNice is -nice.
var controlPlaneNice int

// niceNote says in the log how the components ran, so that a run's figures
// say under which conditions they were taken.
func niceNote() string {
	if controlPlaneNice == 0 {
		return " (its components beside the consoles, at their priority)"
	}
	return fmt.Sprintf(" (its components at niceness %d, below the consoles)", controlPlaneNice)
}

// profileDir is -profile.
var profileDir string

// record is -record.
var record bool

// requestTimeout is -request-timeout, "" for none.
var requestTimeout string

// kubeletEvents is -kubelet-events.
var kubeletEvents bool

func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func run(sizes, k9s, rollscope, baseline, fleetFlag string) error {
	fleet, err := parseFleet(fleetFlag)
	if err != nil {
		return err
	}
	var ns []int
	for _, s := range strings.Split(sizes, ",") {
		if sizes == "" {
			break // -n '' with -fleet: the fleet alone
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-n %q: want replica counts such as 1000,3000", sizes)
		}
		ns = append(ns, n)
	}
	if profileDir != "" {
		// A console whose profile cannot be written does not start at all,
		// and the run would wait minutes for its empty screen.
		if err := os.MkdirAll(profileDir, 0o755); err != nil {
			return fmt.Errorf("-profile %s: %v", profileDir, err)
		}
	}
	if k9s != "" {
		if _, err := os.Stat(k9s); err != nil {
			return fmt.Errorf("-k9s %s: %v — build k9s v0.50.9 there, or pass -k9s '' to measure rollscope alone", k9s, err)
		}
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		return errors.New("tmux is not installed: the consoles run in tmux")
	}
	if clusters < 1 || clusters > 1 && fleet.deployments == 0 {
		return fmt.Errorf("-clusters %d: give 1, or more with -fleet", clusters)
	}
	ctx, stop := interruptible()
	defer stop()
	work, err := os.MkdirTemp("", "rollscope-sidebyside-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if rollscope == "" {
		rollscope = filepath.Join(work, "rollscope")
		say("building rollscope")
		root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "rollscope").Output()
		if err != nil {
			return fmt.Errorf("finding the rollscope module: %v", err)
		}
		build := exec.CommandContext(ctx, "go", "build", "-o", rollscope, "./cmd/rollscope")
		build.Dir = strings.TrimSpace(string(root))
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("building rollscope: %v\n%s", err, out)
		}
	}
	bins, err := cpbuild.Ensure(ctx, func(s string) { say("%s", s) })
	if err != nil {
		return err
	}
	cp, err := controlplane.Start(ctx, controlplane.Config{Binaries: bins, APIQPS: apiQPS, Nice: controlPlaneNice})
	if err != nil {
		return err
	}
	defer cp.Stop()
	say("control plane at %s%s", cp.URL, niceNote())
	admin, err := cp.AdminClient()
	if err != nil {
		return err
	}
	largest := fleet.pods()
	for _, n := range ns {
		largest = max(largest, n)
	}
	stopNodes, err := startNodes(ctx, admin, cp.AdminKubeconfig, largest+others)
	if err != nil {
		return err
	}
	defer stopNodes()
	if others > 0 {
		_, size := hollowNodes(largest + others)
		namespaces, err := fillOthers(ctx, cp, admin, others, size)
		defer dropNamespaces(admin, namespaces)
		if err != nil {
			return err
		}
	}

	var results []result
	for _, n := range ns {
		var consoles []console
		consoles = append(consoles, console{name: "rollscope", kind: rollscopeKind, bin: rollscope})
		for _, b := range baselines(baseline) {
			consoles = append(consoles, console{name: "rollscope (" + filepath.Base(b) + ")", kind: rollscopeKind, bin: b})
		}
		recording := filepath.Join(work, fmt.Sprintf("rollout-%d.rec", n))
		if record {
			consoles = append(consoles, console{name: "rollscope --record-to", kind: rollscopeKind, bin: rollscope, args: []string{"--record-to", recording}})
		}
		if k9s != "" {
			consoles = append(consoles,
				console{name: "k9s :pods", kind: k9sPods, bin: k9s},
				console{name: "k9s :deploy", kind: k9sDeploy, bin: k9s})
		}
		r, err := measure(ctx, cp, admin, n, consoles, work)
		if err != nil {
			return fmt.Errorf("%d replicas: %w", n, err)
		}
		if fi, err := os.Stat(recording); err == nil {
			say("%d replicas: the recording is %.2f MB", n, float64(fi.Size())/1e6)
		}
		results = append(results, r...)
	}
	if fleet.deployments > 0 {
		r, err := fleetRun(ctx, cp, admin, bins, clusters, fleet, rollscope, k9s, baseline, work)
		if err != nil {
			return fmt.Errorf("fleet %dx%d/%d: %w", fleet.deployments, fleet.replicas, fleet.namespaces, err)
		}
		results = append(results, r...)
	}
	printTable(os.Stdout, results)
	behind := 0
	for _, r := range results {
		for _, why := range r.settled.behind {
			fmt.Printf("%d pods, %s: %s\n", r.replicas, r.console, why)
			behind++
		}
	}
	if behind > 0 {
		return fmt.Errorf("ReplicaSet rows differed from the API's at %s of the rollouts", model.Plural(behind, "settled moment"))
	}
	return nil
}

// baselines are -baseline's binaries, comma-separated.
func baselines(flag string) []string {
	var bins []string
	for _, b := range strings.Split(flag, ",") {
		if b = strings.TrimSpace(b); b != "" {
			bins = append(bins, b)
		}
	}
	return bins
}

// cpuSeconds is utime+stime of a process, from /proc/PID/stat.
func cpuSeconds(pid int) (float64, error) {
	f, err := statFields(pid, 15)
	if err != nil {
		return 0, err
	}
	ut, _ := strconv.ParseFloat(f[14], 64)
	st, _ := strconv.ParseFloat(f[15], 64)
	return (ut + st) / clockTicks, nil
}

// statFields are the fields of /proc/PID/stat, numbered as proc(5) numbers
// them from 1 (f[3] is the state, f[14] utime), at least through field last.
func statFields(pid, last int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	// The command name (field 2) may hold spaces; the fields after it do
	// not. Fields 1 and 2 are left empty: nothing here reads them.
	s := string(b)
	f := append(make([]string, 3), strings.Fields(s[strings.LastIndexByte(s, ')')+1:])...)
	if len(f) <= last {
		return nil, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	return f, nil
}

// clockTicks is USER_HZ, 100 on every Linux this runs on.
const clockTicks = 100

// peakRSS is VmHWM of a process, in MiB.
func peakRSS(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmHWM", pid)
}

func interruptible() (context.Context, context.CancelFunc) {
	return signalContext()
}
