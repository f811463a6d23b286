package recording

import (
	"rollscope/model/cluster"
	"testing"
	"time"

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
