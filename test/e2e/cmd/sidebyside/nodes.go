package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/controlplane"
	"rollscope/test/e2e/e2etest"
)

// podsPerNode is the hollow nodes' capacity.
const podsPerNode = 110

// nodesNice is -nodes-nice.
var nodesNice int

// nodesEnv, set in a child's environment, makes the command serve that many
// replicas' hollow nodes instead of measuring (-nodes-nice).
const nodesEnv = "ROLLSCOPE_SIDEBYSIDE_NODES"

// hollowNodes are enough hollow nodes for n replicas and their 25% surge.
func hollowNodes(n int) (live.Nodes, int) {
	size := (n+n/4)/podsPerNode + 2
	return live.Nodes{
		Groups:        []nodegroup.Group{e2etest.HollowGroup(size, time.Second, e2etest.Capacity(fmt.Sprint(podsPerNode), "64", "256Gi"))},
		Images:        []kubelet.ImageRule{{Match: "*", Pull: time.Second, Start: time.Second, Ready: 2 * time.Second, Jitter: time.Second}},
		OnError:       e2etest.IgnoreErrors, // retried; not what is measured
		RoutineEvents: kubeletEvents,
	}, size
}

// startNodes runs the hollow nodes for n replicas in the cluster admin
// reaches: in this process, or with -nodes-nice in a process of their own
// at that niceness, so that their kubelets' work waits behind the consoles'
// as a cluster's machines do not share the operator's.
func startNodes(ctx context.Context, admin kubernetes.Interface, kubeconfig string, n int) (stop func(), err error) {
	if nodesNice > 0 {
		return startNodesProcess(kubeconfig, n)
	}
	if others > 0 {
		// The rest of the cluster's pods start at the API server's pace.
		config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		if err != nil {
			return nil, err
		}
		if admin, err = bulkClient(config); err != nil {
			return nil, err
		}
	}
	nodes, size := hollowNodes(n)
	nctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- nodes.Run(nctx, admin) }()
	say("running %d hollow nodes", size)
	return func() {
		cancel()
		<-done
		cleanup, c := context.WithTimeout(context.Background(), 10*time.Second)
		defer c()
		_ = nodes.Delete(cleanup, admin)
	}, nil
}

// startNodesProcess starts this command again, through nice(1), to serve
// the nodes (serveNodes); stop asks it to end and delete them.
func startNodesProcess(kubeconfig string, n int) (stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("-nodes-nice: finding this command to start the nodes' process: %w", err)
	}
	cmd := exec.Command("nice", "-n", strconv.Itoa(nodesNice), self, "-kubelet-events="+strconv.FormatBool(kubeletEvents), "-others="+strconv.Itoa(others))
	cmd.Env = append(os.Environ(), nodesEnv+"="+strconv.Itoa(n), "KUBECONFIG="+kubeconfig)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	// The nodes end with the harness, however it ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("-nodes-nice: starting the nodes' process: %w", err)
	}
	done, stopping := make(chan error, 1), new(atomic.Bool)
	go func() {
		err := cmd.Wait()
		if !stopping.Load() {
			// Without its nodes the rollout cannot end: say why the
			// harness waits, rather than let it wait in silence.
			say("the hollow nodes' process ended before the run did (%v): pods will not start", err)
		}
		done <- err
	}()
	// nice(1) sets the niceness, then execs the command in the same pid.
	time.Sleep(200 * time.Millisecond)
	nice, err := niceness(cmd.Process.Pid)
	if err != nil {
		return nil, fmt.Errorf("-nodes-nice: the nodes' process: %w", err)
	}
	say("the hollow nodes in process %d at niceness %d", cmd.Process.Pid, nice)
	return func() {
		stopping.Store(true)
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}, nil
}

// serveNodes is the nodes' process: it runs the hollow nodes for the
// replicas nodesEnv names in the cluster of $KUBECONFIG until told to stop,
// then deletes them.
func serveNodes(replicas string) error {
	n, err := strconv.Atoi(replicas)
	if err != nil || n < 1 {
		return fmt.Errorf("%s=%q: want a replica count", nodesEnv, replicas)
	}
	config, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		return err
	}
	// The rate the nodes have in the harness's process.
	config.QPS, config.Burst = controlplane.ClientQPS, controlplane.ClientBurst
	if others > 0 {
		config.QPS, config.Burst = bulkQPS, bulkQPS
	}
	admin, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	nodes, size := hollowNodes(n)
	say("running %d hollow nodes", size)
	if err := nodes.Run(ctx, admin); err != nil && ctx.Err() == nil {
		return err
	}
	cleanup, c := context.WithTimeout(context.Background(), 10*time.Second)
	defer c()
	return nodes.Delete(cleanup, admin)
}

// niceness is a process's nice value, field 19 of /proc/PID/stat.
func niceness(pid int) (int, error) {
	f, err := statFields(pid, 19)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(f[19])
}
