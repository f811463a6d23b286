package controlplane

import (
	"fmt"
	"syscall"
)

// FreezeAPIServer stops the API server's process group with SIGSTOP: its
// sockets stay open and its clients' connections with them, but nothing
// answers — a wedged or swapping API server, which neither refuses nor
// closes a connection. ThawAPIServer lets it go on; Stop thaws it first.
func (cp *ControlPlane) FreezeAPIServer() error { return cp.apiserver.signal(syscall.SIGSTOP) }

// ThawAPIServer lets a frozen API server go on with SIGCONT.
func (cp *ControlPlane) ThawAPIServer() error { return cp.apiserver.signal(syscall.SIGCONT) }

// signal sends sig to the process's group.
func (p *process) signal(sig syscall.Signal) error {
	if p.exited() {
		return fmt.Errorf("%s is not running", p.name)
	}
	if err := syscall.Kill(-p.cmd.Process.Pid, sig); err != nil {
		return fmt.Errorf("sending %v to %s: %w", sig, p.name, err)
	}
	return nil
}
