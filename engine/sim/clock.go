package sim

import (
	"sync"
	"time"
)

// Clock is rollscope's virtual clock. In `simulate` it jumps from one timer to
// the next; in the console it follows real time multiplied by a speed that the
// operator changes (0 pauses it). It is safe for concurrent use: the API
// server stamps objects with it from whichever goroutine writes.
type Clock struct {
	mu       sync.RWMutex
	base     time.Time // virtual time at rebase
	realBase time.Time // real time at rebase
	speed    float64   // 0 = stopped (manual), >0 = flowing
	realNow  func() time.Time
}

// NewClock returns a stopped clock at start.
func NewClock(start time.Time) *Clock {
	return &Clock{base: start, realNow: time.Now}
}

// Now is the current virtual time.
func (c *Clock) Now() time.Time {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	if c.speed == 0 {
		return c.base
	}
	elapsed := c.realNow().Sub(c.realBase)
	return c.base.Add(time.Duration(float64(elapsed) * c.speed))
}

// Since is Now().Sub(t).
func (c *Clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Speed is the current multiplier of real time (0 when stopped).
func (c *Clock) Speed() float64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.speed
}

// SetSpeed makes the clock flow at speed × real time from now on; 0 stops it.
func (c *Clock) SetSpeed(speed float64) {
	if speed < 0 {
		speed = 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base = c.nowLocked()
	c.realBase = c.realNow()
	c.speed = speed
}

// advanceTo moves a stopped clock forward to t; it never goes back.
func (c *Clock) advanceTo(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.speed != 0 {
		return
	}
	if t.After(c.base) {
		c.base = t
	}
}

// realDelay is how long, in real time, until virtual time t at the current speed.
func (c *Clock) realDelay(t time.Time) (time.Duration, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.speed == 0 {
		return 0, false
	}
	d := t.Sub(c.nowLocked())
	if d < 0 {
		d = 0
	}
	return time.Duration(float64(d) / c.speed), true
}
