package main

import "rollscope/engine/sim"

// simControls lets the console's +, - and space keys drive the embedded
// cluster's virtual clock. Only the console's goroutine calls it.
type simControls struct {
	clock  *sim.Clock
	runner *sim.Runner
	speed  float64 // kept while paused
	paused bool
}

func (s *simControls) Speed() float64 { return s.speed }

func (s *simControls) SetSpeed(v float64) {
	s.speed = v
	if !s.paused {
		s.clock.SetSpeed(v)
		s.runner.Poke() // the runner's next wake-up moved
	}
}

func (s *simControls) Paused() bool { return s.paused }

func (s *simControls) SetPaused(p bool) {
	s.paused = p
	if p {
		s.clock.SetSpeed(0)
	} else {
		s.clock.SetSpeed(s.speed)
	}
	s.runner.Poke()
}
