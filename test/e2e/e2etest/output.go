package e2etest

import (
	"bytes"
	"errors"
	"os/exec"
	"sync"
)

// LockedWriter appends to Buf holding Mu, so that a test can read what a
// process beside it has written so far while the process still writes.
// Its stdout and stderr share one Mu.
type LockedWriter struct {
	Mu  *sync.Mutex
	Buf *bytes.Buffer
}

func (w LockedWriter) Write(p []byte) (int, error) {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	return w.Buf.Write(p)
}

// ExitCode is the exit status of a finished command's Run error: 0 when it
// succeeded, its code when it exited non-zero; any other error (it could not
// be started, or was killed) is returned as such.
func ExitCode(err error) (int, error) {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit) && exit.Exited():
		return exit.ExitCode(), nil
	}
	return -1, err
}
