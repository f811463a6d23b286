package sim

import "testing"

// Pausing keeps the speed: space and then space again go on at the speed
// + and - chose, and + while paused is taken up on resuming.
func TestControlsKeepTheSpeedWhilePaused(t *testing.T) {
	r, _, clk := newRunner(t)
	c := NewControls(r, 4)
	c.SetSpeed(8)
	if clk.Speed() != 8 || c.Speed() != 8 {
		t.Fatalf("speed %v (clock %v), want 8", c.Speed(), clk.Speed())
	}
	c.SetPaused(true)
	c.SetSpeed(2)
	if !c.Paused() || clk.Speed() != 0 || c.Speed() != 2 {
		t.Fatalf("paused %v, clock %v, speed %v: want the clock stopped, speed 2 kept", c.Paused(), clk.Speed(), c.Speed())
	}
	c.SetPaused(false)
	if c.Paused() || clk.Speed() != 2 {
		t.Fatalf("after resuming: paused %v, clock %v, want flowing at 2", c.Paused(), clk.Speed())
	}
}
