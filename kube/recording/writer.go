// Package recording writes and reads the flight recorder's files
// (model/recording is their format) and plays a recording back to the
// console as a cluster of its own (player.go).
package recording

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

// memberEvery is how often what was recorded is closed into a gzip member
// of its own, so that a recorder killed with SIGKILL leaves a file
// readable up to its last second.
const memberEvery = time.Second

// closeMarkWithin bounds the clock's time between the last mark and the
// close that Close marks: a mark's real second at the fastest speed, ×64.
const closeMarkWithin = 2 * time.Minute

// Writer appends batches and actions to a recording as they come.
type Writer struct {
	mu      sync.Mutex
	f       *os.File
	gz      *gzip.Writer
	deltas  *rec.Deltas
	env     bool
	open    bool // the current member has records not closed yet
	begun   bool
	clock   func() time.Time
	watch   cluster.WatchStatus
	user    string
	err     error
	stop    chan struct{}
	stopped chan struct{}
	closing sync.Once
	// buf is the line being written, kept for the next; last is the
	// time of the last record written.
	buf  []byte
	last time.Time
}

// Create opens a recording at path, to Begin once what it records is
// known. A path that cannot be written is refused here, before anything
// is watched. env keeps environment variables' values (--record-env).
func Create(path string, env bool) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot record to %s: %w", path, err)
	}
	// The fastest compression: a recording is a small fraction of the
	// size allowed either way (docs/performance.md), and the console it
	// runs in pays for every byte compressed.
	gz, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	return &Writer{f: f, gz: gz, deltas: rec.NewDeltas(), env: env,
		stop: make(chan struct{}), stopped: make(chan struct{})}, nil
}

// Begin writes the header (its Format, Version and Env filled in) and
// starts closing a member each second. clock is the cluster's (nil: the
// wall clock): a second with nothing recorded is marked with its time, so
// that the recording spans every second it ran, quiet ones included. What
// comes before Begin, and any Begin after the first, is not recorded.
func (w *Writer) Begin(h rec.Header, clock func() time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.begun {
		return nil
	}
	h.Format, h.Version, h.Env = rec.Format, rec.Version, w.env
	if h.Started.IsZero() {
		h.Started = time.Now()
	}
	if clock == nil {
		clock = time.Now
	}
	w.begun, w.user, w.clock = true, h.User, clock
	w.line(h)
	w.closeMember()
	go w.flushing()
	return w.err
}

// Batch records what the watch sent: each object's change since it was
// last recorded, the deletions, and the watch's health when it changed.
func (w *Writer) Batch(b cluster.Batch) {
	if !w.began() {
		return
	}
	r := rec.Record{At: b.At}
	for _, obj := range b.Objects {
		k, ok := kindOf(obj)
		m, named := obj.(metav1.Object)
		if !ok || !named {
			continue
		}
		data, err := marshal(obj)
		if err != nil {
			continue
		}
		if !w.env {
			data = rec.MaskEnv(data)
		}
		w.mu.Lock()
		c, changed := w.deltas.Tell(rec.Ref{Kind: k, Namespace: m.GetNamespace(), Name: m.GetName()}, data)
		w.mu.Unlock()
		if changed {
			r.Objects = append(r.Objects, c)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ref := range b.Deleted {
		r.Deleted = append(r.Deleted, rec.RefOf(ref))
		w.deltas.Forget(rec.RefOf(ref))
	}
	if b.Watch != w.watch {
		w.watch = b.Watch
		r.Watch = &b.Watch
	}
	if len(r.Objects) > 0 || len(r.Deleted) > 0 || r.Watch != nil {
		w.line(r)
	}
}

// Action records what the console sent to a workload, as its timeline
// tells it, with the kubeconfig user who sent it.
func (w *Writer) Action(namespace, name string, e cluster.TimelineEntry) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.begun {
		return
	}
	w.line(rec.Record{At: e.Time, Action: &rec.Action{Namespace: namespace, Name: name, Entry: e, User: w.user}})
}

// Paused marks the moment the console's clock stopped, so that a replay
// sent to its second shows what the operator had before them then.
func (w *Writer) Paused() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.begun {
		return
	}
	w.line(rec.Record{At: w.clock(), Paused: true})
}

func (w *Writer) began() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.begun
}

// line appends v as one JSON line; w.mu is held.
func (w *Writer) line(v any) {
	var err error
	if r, ok := v.(rec.Record); ok {
		w.buf, err = appendRecord(w.buf[:0], r)
		w.last = r.At
	} else {
		var data []byte
		data, err = json.Marshal(v)
		w.buf = append(w.buf[:0], data...)
	}
	if err == nil {
		_, err = w.gz.Write(append(w.buf, '\n'))
	}
	if err != nil && w.err == nil {
		w.err = err
	}
	w.open = true
}

// closeMember ends the gzip member under way, so that what it holds is
// readable however the process ends; w.mu is held.
func (w *Writer) closeMember() {
	if !w.open {
		return
	}
	if err := w.gz.Close(); err != nil && w.err == nil {
		w.err = err
	}
	w.gz.Reset(w.f)
	w.open = false
}

func (w *Writer) flushing() {
	defer close(w.stopped)
	t := time.NewTicker(memberEvery)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.mu.Lock()
			if !w.open {
				w.line(rec.Record{At: w.clock()})
			}
			w.closeMember()
			w.mu.Unlock()
		}
	}
}

// Close ends the recording; the error is the first the file gave.
// Closing again returns the same.
func (w *Writer) Close() error {
	w.closing.Do(func() {
		close(w.stop)
		if w.began() {
			<-w.stopped
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		// The recording runs to the moment it ends, not to its last
		// second's mark: a console that showed 03:12:06 before it quit
		// can be replayed at 03:12:06.
		// Only the part of a mark's second since the last mark — up to
		// two minutes of the clock's time at its fastest (×64): a
		// recording of batches stamped by another clock than the one
		// given is not stretched to the close.
		if w.begun {
			if now := w.clock(); now.After(w.last) && now.Sub(w.last) <= closeMarkWithin {
				w.line(rec.Record{At: now})
			}
		}
		w.closeMember()
		if err := w.f.Close(); err != nil && w.err == nil {
			w.err = err
		}
		if !w.begun {
			// Nothing was recorded (the command stopped before its
			// console began, on bad input): no empty file for replay
			// to refuse.
			_ = os.Remove(w.f.Name())
		}
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
