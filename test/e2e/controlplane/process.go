package controlplane

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// process is one control-plane component. It can be stopped and started
// again with the same arguments (the API server fault tests do this).
type process struct {
	name    string
	path    string
	args    []string
	logPath string
	// nice > 0 starts it through nice(1), every thread at that niceness.
	nice int

	cmd  *exec.Cmd
	log  *os.File
	done chan struct{} // closed when cmd has been waited for
	err  error         // the exit status, valid once done is closed
}

// start launches the process in its own process group, appending its output
// to its log file. The parent-death signal kills it if the test binary dies
// without running its cleanups (a Ctrl-C or a go test timeout). Linux sends
// it when the forking thread exits; the Go runtime only retires threads left
// locked by LockOSThread, which nothing here does.
func (p *process) start() error {
	if p.cmd != nil && !p.exited() {
		return fmt.Errorf("starting %s: it is already running as pid %d", p.name, p.cmd.Process.Pid)
	}
	log, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("opening the %s log %s: %w", p.name, p.logPath, err)
	}
	fmt.Fprintf(log, "\n===== %s starting at %s: %s %q\n", p.name, time.Now().Format(time.RFC3339Nano), filepath.Base(p.path), p.args)
	cmd := exec.Command(p.path, p.args...)
	if p.nice > 0 {
		// nice(1) execs the component: the same pid and process group,
		// and every thread it ever starts inherits the niceness, which a
		// setpriority after the start would not give the threads already
		// running.
		cmd = exec.Command("nice", append([]string{"-n", strconv.Itoa(p.nice), p.path}, p.args...)...)
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("starting %s (%s): %w", p.name, p.path, err)
	}
	p.cmd, p.log, p.done, p.err = cmd, log, make(chan struct{}), nil
	go func(done chan struct{}) {
		p.err = cmd.Wait()
		fmt.Fprintf(log, "===== %s exited at %s: %v\n", p.name, time.Now().Format(time.RFC3339Nano), p.err)
		log.Close()
		close(done)
	}(p.done)
	return nil
}

func (p *process) exited() bool {
	if p.done == nil {
		return true
	}
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitErr reports why the process ended, or nil while it is running.
func (p *process) exitErr() error {
	if !p.exited() {
		return nil
	}
	if p.err == nil {
		return fmt.Errorf("%s exited", p.name)
	}
	return fmt.Errorf("%s exited: %w", p.name, p.err)
}

// stop sends SIGTERM to the process group, and SIGKILL if it has not exited
// after grace. It returns once the process has been reaped, so its ports are
// free again (kube-apiserver keeps serving for seconds after SIGTERM).
func (p *process) stop(grace time.Duration) {
	if p.exited() {
		return
	}
	pgid := p.cmd.Process.Pid
	// A frozen process (FreezeAPIServer) would not act on SIGTERM.
	_ = syscall.Kill(-pgid, syscall.SIGCONT)
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
		return
	case <-time.After(grace):
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-p.done
}

// tail returns up to the last n lines of the process's log.
func (p *process) tail(n int) string {
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", p.logPath, err)
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = append([][]byte{[]byte(fmt.Sprintf("... (%d earlier lines in %s)", len(lines)-n, p.logPath))}, lines[len(lines)-n:]...)
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// freePorts reserves n distinct loopback ports by listening on them all at
// once, then releases them for the components to bind. Another process could
// take one in between; start reports that as a component failing to start.
func freePorts(n int) ([]int, error) {
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("reserving a loopback port: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func hostPort(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }
