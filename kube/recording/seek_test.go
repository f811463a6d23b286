package recording

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	rec "rollscope/model/recording"
)

// recordRollouts writes a recording of a Deployment of pods pods rolled
// every gap, rollouts times, and returns its path and when it ends.
func recordRollouts(tb testing.TB, rollouts, pods int, gap time.Duration) (string, time.Time) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "rollouts")
	w, err := Create(path, false)
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.Begin(rec.Header{}, nil); err != nil {
		tb.Fatal(err)
	}
	var end time.Time
	for i := range rollouts {
		end = fakeRollout(w, t0.Add(time.Duration(i)*gap), pods, i+2)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return path, end
}

// shown is what the console reads of a picture at a moment: the
// Deployment list, the fleet, the rollout's view and its timeline.
type shown struct {
	Deployments any
	Fleet       any
	Rollout     any
	Timeline    any
}

func shownAt(pic *Picture, now time.Time) shown {
	v, _ := pic.Rollout("shop", "web", now)
	return shown{pic.Deployments(), pic.Fleet("", now), v, pic.Timeline("shop", "web")}
}

// TestSeekingShowsWhatPlayingShowed: at every second of a recording, a
// picture moved there by seeking (forward from the moment before, or
// back from the end) shows what a picture built from the start up to
// that second shows.
func TestSeekingShowsWhatPlayingShowed(t *testing.T) {
	path, end := recordRollouts(t, 3, 20, time.Minute)
	tape, err := Open(path)
	if err != nil || tape.Problem != "" {
		t.Fatalf("open: %v %s", err, tape.Problem)
	}
	var moments []time.Time
	for at := tape.Start(); !at.After(end); at = at.Add(time.Second) {
		moments = append(moments, at)
	}
	forward, back := NewPlayer(tape), NewPlayer(tape)
	fwdPic, backPic := forward.NewPicture(), back.NewPicture()
	back.Seek(end)
	backPic.Apply(cluster0)
	for i, at := range moments {
		fresh := NewPlayer(tape)
		fresh.Seek(at)
		want := shownAt(fresh.NewPicture(), at)

		forward.Seek(at)
		fwdPic.Apply(cluster0)
		if got := shownAt(fwdPic, at); !reflect.DeepEqual(got, want) {
			t.Fatalf("seeking forward to %s shows another picture than playing to it", at.Format(time.TimeOnly))
		}
		// Back: from the end towards the start.
		bat := moments[len(moments)-1-i]
		back.Seek(bat)
		backPic.Apply(cluster0)
		fresh = NewPlayer(tape)
		fresh.Seek(bat)
		if got, want := shownAt(backPic, bat), shownAt(fresh.NewPicture(), bat); !reflect.DeepEqual(got, want) {
			t.Fatalf("seeking back to %s shows another picture than playing to it", bat.Format(time.TimeOnly))
		}
	}
	if len(fwdPic.Deployments()) != 1 {
		t.Fatal("the recording's Deployment is not shown at its end")
	}
}
