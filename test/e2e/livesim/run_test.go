package livesim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// rolloutScenario rolls 6 replicas one at a time (maxSurge 1,
// maxUnavailable 0), each new pod ready 2 s after it starts: long enough to
// stop the API server in the middle. smallScenario rolls 3, each ready in
// 1 s.
const (
	rolloutScenario = "../testdata/livesim/rollout.yaml"
	smallScenario   = "../testdata/livesim/small.yaml"
	// drainScenario drains one of two nodes.
	drainScenario = "../testdata/livesim/drain.yaml"
)

// simRun is one `rollscope simulate` process, its trace read as it comes.
type simRun struct {
	cmd    *exec.Cmd
	stderr lockedBuffer
	exited chan struct{}
	err    error // the exit, once exited is closed

	mu    sync.Mutex
	lines []map[string]any
	raw   []string
	bad   []string // lines that are not JSON
}

// startSim starts the real binary on kubeconfig with args after it.
func startSim(t *testing.T, bin, kubeconfig string, args ...string) *simRun {
	t.Helper()
	args = append([]string{"simulate", "--kubeconfig", kubeconfig, "--format", "jsonl"}, args...)
	r := &simRun{cmd: exec.Command(bin, args...), exited: make(chan struct{})}
	r.cmd.Stderr = &r.stderr
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("starting rollscope %s: %v", strings.Join(args, " "), err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			r.add(sc.Text())
		}
		r.err = r.cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-r.exited:
		default:
			// A failed test must not leave the run behind: Ctrl-C cleans up.
			_ = r.cmd.Process.Signal(interrupt)
			<-r.exited
		}
	})
	return r
}

func (r *simRun) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.raw = append(r.raw, line)
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		r.bad = append(r.bad, line)
		return
	}
	r.lines = append(r.lines, m)
}

// trace is a copy of the lines so far.
func (r *simRun) trace() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.lines...)
}

// waitLine waits until a line satisfies match, and returns it.
func (r *simRun) waitLine(ctx context.Context, t *testing.T, what string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	var found map[string]any
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 2*time.Minute, true, func(context.Context) (bool, error) {
		for _, l := range r.trace() {
			if match(l) {
				found = l
				return true, nil
			}
		}
		select {
		case <-r.exited:
			return false, fmt.Errorf("rollscope exited (%v) first", r.err)
		default:
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("waiting for %s in the trace: %v\nstderr: %s\ntrace:\n%s", what, err, r.stderr.String(), r.text())
	}
	return found
}

// wait waits for the process to exit and returns its exit code.
func (r *simRun) wait(ctx context.Context, t *testing.T) int {
	t.Helper()
	select {
	case <-r.exited:
	case <-ctx.Done():
		t.Fatalf("rollscope simulate did not exit: %v\nstderr: %s\ntrace:\n%s", ctx.Err(), r.stderr.String(), r.text())
	}
	if r.err == nil {
		return 0
	}
	if exit, ok := r.err.(*exec.ExitError); ok {
		return exit.ExitCode()
	}
	t.Fatalf("rollscope simulate: %v", r.err)
	return -1
}

func (r *simRun) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.raw, "\n")
}

// namespace is the run's namespace, from its workloads' lines.
func (r *simRun) namespace(t *testing.T) string {
	t.Helper()
	for _, l := range r.trace() {
		if ns, ok := l["namespace"].(string); ok && ns != "" {
			return ns
		}
	}
	t.Fatalf("no line of the trace names the run's namespace:\n%s", r.text())
	return ""
}

// lockedBuffer collects stderr, read while the process may still write.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(b.buf.String())
}
