package recording

import (
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

func replicasShown(t *testing.T, pic *Picture) int32 {
	t.Helper()
	for _, d := range pic.Deployments() {
		return d.Replicas
	}
	return -1
}

// TestPlayerShowsTheRecordedClusterAtEachMoment: playing, stepping and
// seeking back all show the picture the live console had at that time.
func TestPlayerShowsTheRecordedClusterAtEachMoment(t *testing.T) {
	tape, err := Open(record(t, rec.Header{}, threeBatches()...))
	if err != nil {
		t.Fatal(err)
	}
	real := t0
	p := NewPlayer(tape)
	p.real = func() time.Time { return real }
	p.since = real
	pic := p.NewPicture()
	if got := replicasShown(t, pic); got != 3 {
		t.Fatalf("at the start: %d replicas shown", got)
	}
	p.SetPaused(false)
	real = real.Add(1500 * time.Millisecond)
	pic.Apply(cluster0)
	if got := replicasShown(t, pic); got != 5 || p.Now() != t0.Add(1500*time.Millisecond) {
		t.Fatalf("after 1.5 s at ×1: %d replicas at %s", got, p.Now())
	}
	p.SetSpeed(4)
	real = real.Add(time.Second)
	pic.Apply(cluster0)
	if got := replicasShown(t, pic); got != -1 || !p.Paused() || !p.Now().Equal(tape.End()) {
		t.Fatalf("past the end: %d replicas, paused %v at %s", got, p.Paused(), p.Now())
	}
	p.Step(false)
	pic.Apply(cluster0)
	if got := replicasShown(t, pic); got != -1 || !p.Now().Equal(t0.Add(2*time.Second)) {
		t.Fatalf("a step back from the end shows the deletion at %s: %d", p.Now(), got)
	}
	p.Step(false)
	p.Step(false)
	pic.Apply(cluster0)
	if got := replicasShown(t, pic); got != 3 || !p.Now().Equal(t0) {
		t.Fatalf("two steps back: %d replicas at %s", got, p.Now())
	}
	p.Step(true)
	pic.Apply(cluster0)
	if got := replicasShown(t, pic); got != 5 {
		t.Fatalf("a step on: %d replicas", got)
	}
	if err := p.SeekClock("03:12:00"); err != nil || p.Now().Truncate(time.Second) != t0 || pic.Apply(cluster0) && replicasShown(t, pic) != 3 {
		t.Fatalf("seek 03:12:00: %v, at %s", err, p.Now())
	}
	if err := p.SeekClock("04:00:00"); err == nil {
		t.Fatal("a time outside the recording was accepted")
	}
	if err := p.SeekClock("noon"); err == nil {
		t.Fatal("noon was read as a clock time")
	}
}

var cluster0 cluster.Batch

// TestASecondWithAPauseReplaysAtThePause: the live console paused its
// clock at 03:12:01.3, and showed 6 replicas once the batch in flight came
// in; the rest of that second, after it went on, scaled to 7. `--at 03:12:01` shows the picture
// the operator stopped on; a second without a pause shows its end.
func TestASecondWithAPauseReplaysAtThePause(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.gz")
	var clock atomic.Pointer[time.Time]
	setClock := func(at time.Time) { clock.Store(&at) }
	setClock(t0)
	w, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(rec.Header{}, func() time.Time { return *clock.Load() }); err != nil {
		t.Fatal(err)
	}
	w.Batch(cluster.Batch{At: t0, Objects: []runtime.Object{deployment(3, "")}})
	w.Batch(cluster.Batch{At: t0.Add(1200 * time.Millisecond), Objects: []runtime.Object{deployment(5, "")}})
	setClock(t0.Add(1300 * time.Millisecond))
	w.Paused()
	w.Batch(cluster.Batch{At: t0.Add(1300 * time.Millisecond), Objects: []runtime.Object{deployment(6, "")}}) // came in while paused
	w.Batch(cluster.Batch{At: t0.Add(1700 * time.Millisecond), Objects: []runtime.Object{deployment(7, "")}})
	w.Batch(cluster.Batch{At: t0.Add(2500 * time.Millisecond), Objects: []runtime.Object{deployment(8, "")}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tape, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tape.Pauses) != 1 || !tape.Pauses[0].Equal(t0.Add(1300*time.Millisecond)) {
		t.Fatalf("pauses read back: %v", tape.Pauses)
	}
	for at, want := range map[string]int32{"03:12:00": 3, "03:12:01": 6, "03:12:02": 8} {
		p := NewPlayer(tape)
		pic := p.NewPicture()
		if err := p.SeekClock(at); err != nil {
			t.Fatal(err)
		}
		pic.Apply(cluster0)
		if got := replicasShown(t, pic); got != want {
			t.Errorf("--at %s shows %d replicas at %s, want %d", at, got, p.Now().Format(time.StampMilli), want)
		}
	}
}
