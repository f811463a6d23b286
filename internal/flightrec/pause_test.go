package flightrec

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/kube/recording"
	"rollscope/ui"
)

// stoppable is a clock the console can stop, moved by hand. The
// recorder's flusher reads it from a goroutine of its own.
type stoppable struct {
	mu     sync.Mutex
	at     time.Time
	paused bool
}

func (s *stoppable) Speed() float64   { return 1 }
func (s *stoppable) SetSpeed(float64) {}
func (s *stoppable) Paused() bool     { return s.paused }
func (s *stoppable) SetPaused(p bool) { s.paused = p }

func (s *stoppable) now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.at
}

func (s *stoppable) advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.at = s.at.Add(d)
}

// A recorded console's pause is marked where its clock stopped, once per
// pause — not again while it stays paused (a dialog holding a stopped
// clock), nor when it goes on.
func TestARecordedConsoleMarksWhereItsClockStopped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "paused.rec")
	r, err := Open(path, false, "alice")
	if err != nil {
		t.Fatal(err)
	}
	clock := &stoppable{at: time.Date(2026, 3, 1, 3, 12, 0, 0, time.UTC)}
	opts := ui.Options{Context: "embedded", Namespace: "shop", Clock: clock.now, Embedded: clock}
	r.Console(&opts, func(context.Context, func(tea.Msg)) {})
	clock.advance(1300 * time.Millisecond)
	opts.Embedded.SetPaused(true)
	opts.Embedded.SetPaused(true)
	opts.Embedded.SetPaused(false)
	clock.advance(2 * time.Second)
	opts.Embedded.SetPaused(true)
	if !clock.paused {
		t.Fatal("the console's pause did not reach the clock")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	tape, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{clock.now().Add(-2 * time.Second), clock.now()}
	if len(tape.Pauses) != len(want) || !tape.Pauses[0].Equal(want[0]) || !tape.Pauses[1].Equal(want[1]) {
		t.Errorf("pauses recorded at %v, want %v", tape.Pauses, want)
	}
}
