package e2etest

import (
	"bytes"
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
