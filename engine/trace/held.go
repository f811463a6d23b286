package trace

import (
	"bytes"
	"io"
	"sync"
)

// Held keeps what is written until Release, so that a scenario that
// fails while its objects are created prints no trace at all. A live run
// writes from its informers' goroutines while it is released.
type Held struct {
	mu       sync.Mutex
	w        io.Writer
	buf      bytes.Buffer
	released bool
}

func (h *Held) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return h.w.Write(p)
	}
	return h.buf.Write(p)
}

// Release writes what was held and lets every later write through.
func (h *Held) Release() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.released = true
	_, err := h.buf.WriteTo(h.w)
	return err
}

// NewHeld holds what is written for w.
func NewHeld(w io.Writer) *Held { return &Held{w: w} }
