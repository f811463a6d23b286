package flightrec

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/kube/recording"
	"rollscope/model/cluster"
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

// recorderAt opens a recording at path, and a clock at 03:12:00 for its
// console.
func recorderAt(t *testing.T, path string) (*Recorder, *stoppable) {
	t.Helper()
	r, err := Open(path, false, "alice")
	if err != nil {
		t.Fatal(err)
	}
	return r, &stoppable{at: time.Date(2026, 3, 1, 3, 12, 0, 0, time.UTC)}
}

// closed ends r's recording at path and reads it back.
func closed(t *testing.T, r *Recorder, path string) *recording.Tape {
	t.Helper()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	tape, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return tape
}

// A recorded console's pause is marked where its clock stopped, once per
// pause — not again while it stays paused (a dialog holding a stopped
// clock), nor when it goes on.
func TestARecordedConsoleMarksWhereItsClockStopped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "paused.rec")
	r, clock := recorderAt(t, path)
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
	tape := closed(t, r, path)
	want := []time.Time{clock.now().Add(-2 * time.Second), clock.now()}
	if len(tape.Pauses) != len(want) || !tape.Pauses[0].Equal(want[0]) || !tape.Pauses[1].Equal(want[1]) {
		t.Errorf("pauses recorded at %v, want %v", tape.Pauses, want)
	}
}

// A console started again elsewhere (:ns, :ctx) ends the recording and
// says so: recording on would write the new scope into it and leave the
// old one standing still. One that still covers it (0: every namespace)
// records on.
func TestARecordingEndsWhereTheConsoleLeavesItsScope(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.rec")
	r, clock := recorderAt(t, path)
	run := func(ns string, all bool, objs ...runtime.Object) ui.Options {
		opts := ui.Options{Context: "embedded", Namespace: ns, AllNamespaces: all, Clock: clock.now}
		feed := r.Console(&opts, func(_ context.Context, send func(tea.Msg)) {
			send(cluster.Batch{At: clock.now(), Objects: objs})
		})
		feed(context.Background(), func(tea.Msg) {})
		clock.advance(time.Second)
		return opts
	}
	web := func(ns string) runtime.Object {
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"}}
	}
	run("shop", false, web("shop"))
	if o := run("shop", true, web("billing")); o.ScopeNote != "" {
		t.Errorf("every namespace covers shop, yet: %s", o.ScopeNote)
	}
	left := run("billing", false, web("search"))
	if want := "--record-to shop.rec stopped at 03:12:02: it records namespace shop of embedded, which this console does not show"; left.ScopeNote != want {
		t.Errorf("the console's note reads %q, want %q", left.ScopeNote, want)
	}
	if again := run("shop", false, web("platform")); again.ScopeNote == "" {
		t.Error("a console back on shop after the recording stopped does not say it stopped")
	}
	tape := closed(t, r, path)
	var recorded []string
	for _, f := range tape.Frames {
		for _, obj := range f.Batch.Objects {
			recorded = append(recorded, obj.(metav1.Object).GetNamespace())
		}
	}
	if tape.Header.Namespace != "shop" || strings.Join(recorded, ",") != "shop,billing" {
		t.Errorf("recorded namespace %q with objects of %v, want shop with shop's and then every namespace's until it stopped", tape.Header.Namespace, recorded)
	}
}
