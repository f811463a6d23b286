package sim

// Controls are the console's +, - and space keys on the embedded
// cluster's virtual clock: a speed that survives pausing, and a wake-up
// for the realtime run whenever the clock's flow changes (its next timer
// is then due at another real moment). Only one goroutine — the console's
// — may call them.
type Controls struct {
	clock  *Clock
	runner *Runner
	others []*Runner // the other clusters' on the same clock
	speed  float64   // kept while paused
	paused bool
}

// NewControls controls runner's clock, flowing at speed until changed;
// others are the runners of the other clusters on the same clock, woken
// with it.
func NewControls(runner *Runner, speed float64, others ...*Runner) *Controls {
	return &Controls{clock: runner.Clock(), runner: runner, others: others, speed: speed}
}

// poke wakes every realtime run on the clock.
func (s *Controls) poke() {
	s.runner.Poke()
	for _, r := range s.others {
		r.Poke()
	}
}

// Speed is how many virtual seconds pass per real second when not paused.
func (s *Controls) Speed() float64 { return s.speed }

// SetSpeed changes the speed; a paused clock stays paused and takes it
// up when it flows again.
func (s *Controls) SetSpeed(v float64) {
	s.speed = v
	if !s.paused {
		s.clock.SetSpeed(v)
		s.poke()
	}
}

// Paused reports whether the clock is stopped.
func (s *Controls) Paused() bool { return s.paused }

// SetPaused stops or restarts the clock without losing the speed.
func (s *Controls) SetPaused(p bool) {
	s.paused = p
	if p {
		s.clock.SetSpeed(0)
	} else {
		s.clock.SetSpeed(s.speed)
	}
	s.poke()
}
