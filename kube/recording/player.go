package recording

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"rollscope/model/cluster"
)

// Player plays a tape to the console on a clock of its own: the recorded
// cluster's time, moving at a speed, paused, or put anywhere in the
// recording. It answers the console's clock keys as the embedded
// cluster's clock does (ui.EmbeddedControls), and the replay's own keys
// (ui.ReplayControls).
//
// The console's picture (Picture) is rebuilt from the recorded batches,
// not from a snapshot of the objects: the timeline, the scale steps and
// the why line are history the read model keeps as batches arrive, so the
// picture at a moment is the recording's batches up to it applied in
// order, as the live console applied them.
type Player struct {
	tape *Tape
	real func() time.Time

	mu     sync.Mutex
	speed  float64
	paused bool
	// at is the replay's time when the real clock read since.
	at, since time.Time
	wake      chan struct{}
}

// NewPlayer starts at the tape's first frame, paused, at speed ×1.
func NewPlayer(t *Tape) *Player {
	p := &Player{tape: t, real: time.Now, speed: 1, paused: true, wake: make(chan struct{}, 1)}
	p.at, p.since = t.Start(), p.real()
	return p
}

// Start plays at speed from the start, or (at a clock time, 15:04:05)
// starts there paused.
func (p *Player) Start(at string, speed float64) error {
	if speed <= 0 || speed > 64 {
		return fmt.Errorf("--speed %g is out of range: give a speed above 0 and at most 64", speed)
	}
	p.SetSpeed(speed)
	if at == "" {
		p.SetPaused(false)
		return nil
	}
	if err := p.SeekClock(at); err != nil {
		return fmt.Errorf("--at %s: %w", at, err)
	}
	return nil
}

// Now is the replay's time: where in the recording the console is.
func (p *Player) Now() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.now()
}

// now moves the clock on to the real time; p.mu is held. At the end of
// the recording it stops, paused.
func (p *Player) now() time.Time {
	real := p.real()
	if !p.paused {
		p.at = p.at.Add(time.Duration(float64(real.Sub(p.since)) * p.speed))
	}
	p.since = real
	if end := p.tape.End(); !p.at.Before(end) && !p.paused {
		p.at, p.paused = end, true
	}
	return p.at
}

func (p *Player) Speed() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.speed
}

func (p *Player) SetSpeed(s float64) {
	p.mu.Lock()
	p.now()
	p.speed = s
	p.mu.Unlock()
}

func (p *Player) Paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.now()
	return p.paused
}

// SetPaused pauses or plays; playing at the end starts again from the
// beginning.
func (p *Player) SetPaused(paused bool) {
	p.mu.Lock()
	if p.now(); !paused && !p.at.Before(p.tape.End()) {
		p.at = p.tape.Start()
	}
	p.paused = paused
	p.mu.Unlock()
	p.poke()
}

// Seek puts the replay at t, within the recording.
func (p *Player) Seek(t time.Time) {
	p.mu.Lock()
	p.now()
	p.at = clamp(t, p.tape.Start(), p.tape.End())
	p.mu.Unlock()
	p.poke()
}

// Step puts the replay at the next recorded change after its time, or
// (forward false) the one before the change shown now.
func (p *Player) Step(forward bool) {
	now, frames := p.Now(), p.tape.Frames
	i := sort.Search(len(frames), func(i int) bool { return frames[i].At().After(now) })
	if forward {
		for ; i < len(frames); i++ {
			if frames[i].Changes() {
				p.Seek(frames[i].At())
				return
			}
		}
		return
	}
	// The change shown now is the last one before i: go to the one
	// before it.
	shown := i - 1
	for shown >= 0 && !frames[shown].Changes() {
		shown--
	}
	for j := shown - 1; j >= 0; j-- {
		if frames[j].Changes() && frames[j].At().Before(frames[shown].At()) {
			p.Seek(frames[j].At())
			return
		}
	}
	p.Seek(p.tape.Start())
}

// SeekClock puts the replay at a time of day (15:04:05 or 15:04), the
// first time the recording reaches it, as the clock read it.
func (p *Player) SeekClock(clock string) error {
	var h, m, s int
	if _, err := fmt.Sscanf(clock, "%d:%d:%d", &h, &m, &s); err != nil {
		if _, err := fmt.Sscanf(clock, "%d:%d", &h, &m); err != nil {
			return fmt.Errorf("%q is not a clock time: write it as 15:04:05", clock)
		}
	}
	start, end := p.tape.Start(), p.tape.End()
	for day := start.Truncate(24 * time.Hour); !day.After(end); day = day.Add(24 * time.Hour) {
		y, mo, d := day.In(start.Location()).Date()
		t := time.Date(y, mo, d, h, m, s, 0, start.Location())
		if !t.Before(start.Truncate(time.Second)) && !t.After(end) {
			p.Seek(p.tape.pictureAt(t))
			return nil
		}
	}
	return fmt.Errorf("%s is not in the recording, which runs from %s to %s", clock, start.Format(time.TimeOnly), end.Format(time.TimeOnly))
}

// pictureAt is where, in the second that starts at second, the live
// console's picture stood while its clock read that second: where the
// clock was paused in it (the last pause, when there were several), the
// picture the operator studied; otherwise the second's end, the last
// picture shown while the clock read it.
func (t *Tape) pictureAt(second time.Time) time.Time {
	next := second.Add(time.Second)
	i := sort.Search(len(t.Pauses), func(i int) bool { return !t.Pauses[i].Before(next) })
	if i > 0 && !t.Pauses[i-1].Before(second) {
		return t.Pauses[i-1]
	}
	return next.Add(-time.Nanosecond)
}

func clamp(t, lo, hi time.Time) time.Time {
	if t.Before(lo) {
		return lo
	}
	if t.After(hi) {
		return hi
	}
	return t
}

func (p *Player) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// tick is how often a playing replay asks the console to catch up.
const tick = 50 * time.Millisecond

// Run sends an empty batch each tick while the replay plays, and at once
// when it is moved, until ctx ends: the console's Picture applies what is
// due by then on the console's own goroutine.
func (p *Player) Run(ctx context.Context, send func(cluster.Batch)) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		case <-t.C:
			if p.Paused() {
				continue
			}
		}
		send(cluster.Batch{})
	}
}

// Picture is the console's picture of the recorded cluster at the
// replay's time: a read model the recorded batches are applied to, made
// anew from the start when the replay goes back.
type Picture struct {
	*cluster.Cluster
	p     *Player
	shown int // frames applied
}

// NewPicture is the picture p shows, at its first frame.
func (p *Player) NewPicture() *Picture {
	pic := &Picture{Cluster: cluster.NewCluster(), p: p}
	pic.Apply(cluster.Batch{})
	return pic
}

// Apply brings the picture to the replay's time, whatever the batch: the
// player's ticks carry nothing.
func (pic *Picture) Apply(cluster.Batch) bool {
	return pic.applyTo(pic.p.Now())
}

func (pic *Picture) applyTo(now time.Time) bool {
	frames := pic.p.tape.Frames
	changed := false
	if pic.shown > 0 && frames[pic.shown-1].At().After(now) {
		pic.Cluster, pic.shown, changed = cluster.NewCluster(), 0, true
	}
	for ; pic.shown < len(frames) && !frames[pic.shown].At().After(now); pic.shown++ {
		f := frames[pic.shown]
		if a := f.Action; a != nil {
			pic.Cluster.AddAction(a.Namespace, a.Name, a.Entry)
			changed = true
			continue
		}
		changed = pic.Cluster.Apply(f.Batch) || changed
	}
	return changed
}
