package controlplane

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const helperEnv = "ROLLSCOPE_CONTROLPLANE_HELPER"

// TestComponentsDieWithTheTestBinary checks the parent-death signal: a test
// binary killed outright (Ctrl-C, a go test timeout) runs no cleanups, and
// its components must not outlive it. A helper copy of this test binary
// starts a component and is then SIGKILLed.
func TestComponentsDieWithTheTestBinary(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		p := &process{name: "sleeper", path: "/bin/sleep", args: []string{"300"}, logPath: filepath.Join(os.TempDir(), "rollscope-helper-sleeper.log")}
		if err := p.start(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("pid", p.cmd.Process.Pid)
		select {}
	}
	helper := exec.Command(os.Args[0], "-test.run=^TestComponentsDieWithTheTestBinary$")
	helper.Env = append(os.Environ(), helperEnv+"=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatalf("starting the helper: %v", err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = helper.Process.Kill()
		t.Fatalf("reading the helper's component pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "pid ")))
	if err != nil {
		_ = helper.Process.Kill()
		t.Fatalf("the helper said %q, want its component's pid", line)
	}
	_ = helper.Process.Kill()
	_ = helper.Wait()

	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("component pid %d still runs 10s after its parent was killed", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive reports whether pid runs; a zombie nobody has reaped yet counts as dead.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses: "pid (comm) S ...".
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// TestStopEndsTheWholeProcessGroup: a component's own children (none of ours
// has any, but a wrapper script would) go down with it.
func TestStopEndsTheWholeProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	p := &process{name: "wrapper", path: "/bin/sh", args: []string{"-c", "sleep 300 & echo $! > " + pidFile + "; wait"}, logPath: filepath.Join(dir, "wrapper.log")}
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	child := childPID(t, p, pidFile)
	p.stop(5 * time.Second)
	if !p.exited() {
		t.Fatal("stop returned with the process still running")
	}
	if !waitGone(child) {
		t.Fatalf("the wrapper's child %d survived stop", child)
	}
	if log := p.tail(5); !strings.Contains(log, "wrapper exited") {
		t.Errorf("the log does not record the exit:\n%s", log)
	}
}

// TestANicedComponentRunsAtItsNiceness: Config.Nice puts a component, and
// whatever it starts, below the consoles a harness measures beside it; the
// pid kept is the component's own (nice(1) execs it), so stopping it still
// stops the component.
func TestANicedComponentRunsAtItsNiceness(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	p := &process{name: "wrapper", path: "/bin/sh", args: []string{"-c", "sleep 300 & echo $! > " + pidFile + "; wait"}, logPath: filepath.Join(dir, "wrapper.log"), nice: 7}
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	defer p.stop(5 * time.Second)
	child := childPID(t, p, pidFile)
	base := niceness(t, os.Getpid())
	for _, pid := range []int{p.cmd.Process.Pid, child} {
		if got := niceness(t, pid); got != base+7 {
			t.Errorf("pid %d runs at niceness %d, want %d (the harness's %d and 7 more)", pid, got, base+7, base)
		}
	}
	if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p.cmd.Process.Pid)); strings.TrimSpace(string(comm)) != "sh" {
		t.Errorf("the pid kept runs %q, want the component itself (sh)", strings.TrimSpace(string(comm)))
	}
	p.stop(5 * time.Second)
	if !p.exited() || !waitGone(child) {
		t.Error("stop left the niced component or its child running")
	}
}

// niceness reads a process's nice value, the 19th field of /proc/PID/stat.
func niceness(t *testing.T, pid int) int {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	n, err := strconv.Atoi(fields[16]) // fields[0] is the 3rd, the state
	if err != nil {
		t.Fatalf("/proc/%d/stat: %v", pid, err)
	}
	return n
}

// childPID waits for the wrapper p to write its child's pid into pidFile
// (stopping p if it never does).
func childPID(t *testing.T, p *process, pidFile string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(data), "\n") {
			if child, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				return child
			}
		}
		if time.Now().After(deadline) {
			p.stop(time.Second)
			t.Fatal("the wrapper never wrote its child's pid")
		}
	}
}

// waitGone waits up to 5 s for pid to end, and kills it if it does not.
func waitGone(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	return false
}
