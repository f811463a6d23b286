package plain

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A long run shows how far it got on one rewritten line, and leaves that
// line blank when it ends; a run shorter than the delay prints nothing.
func TestSimulateProgress(t *testing.T) {
	var out lockedBuffer
	stop := Progress(&out, func() time.Duration { return 95 * time.Second }, time.Millisecond, time.Millisecond)
	for !strings.Contains(out.String(), "1m35s of virtual time") {
		time.Sleep(time.Millisecond)
	}
	stop()
	got := out.String()
	if !strings.HasPrefix(got, "\r\033[Ksimulate: 1m35s of virtual time in ") || !strings.HasSuffix(got, "\r\033[K") || strings.Contains(got, "\n") {
		t.Errorf("progress = %q; want status lines rewritten in place, cleared at the end", got)
	}

	var quiet lockedBuffer
	Progress(&quiet, func() time.Duration { return time.Second }, time.Hour, time.Millisecond)()
	if quiet.String() != "" {
		t.Errorf("a run that ends before the delay printed %q", quiet.String())
	}
}
