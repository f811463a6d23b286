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
	// holds are virtual times the flowing clock does not pass, one for
	// each realtime runner on it: its next timer, until the runner has
	// fired it (holdAt). A runner that falls behind real time then slows
	// the clock instead of letting it jump past controller work that was
	// due. Several clusters run on one clock, each runner holding it.
	holds map[any]time.Time
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
	now := c.base.Add(scaled(elapsed, c.speed))
	if hold, holding := c.heldLocked(); holding && now.After(hold) && !hold.Before(c.base) {
		return hold
	}
	return now
}

// heldLocked is the earliest of the holds.
func (c *Clock) heldLocked() (time.Time, bool) {
	var first time.Time
	holding := false
	for _, t := range c.holds {
		if !holding || t.Before(first) {
			first, holding = t, true
		}
	}
	return first, holding
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
	return scaled(d, 1/c.speed), true
}

// longest bounds a scaled duration (about 146 years): d × factor beyond
// what a time.Duration holds would wrap around to a time in the past — a
// clock at 1e9× real time would jump back after nine seconds without a
// timer, and a timer at 1e-12× would fire at once.
const longest = time.Duration(1 << 62)

// scaled is d × factor, at most longest.
func scaled(d time.Duration, factor float64) time.Duration {
	if v := float64(d) * factor; v < float64(longest) {
		return time.Duration(v)
	}
	return longest
}

// holdAt lets the flowing clock go on from where it stands — where it was
// held, if it was — up to t and no further (a t already past holds it where
// it stands). The realtime runner calls it
// with its next timer each time it has done everything due, so virtual
// time never runs past work the runner has not done yet: a busy runner
// makes the clock slow down rather than skip.
func (c *Clock) holdAt(t time.Time) { c.holdFor(nil, t) }

// holdFor is holdAt for one of the runners on the clock: the clock stops
// at the earliest of their holds.
func (c *Clock) holdFor(who any, t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.realBase = c.nowLocked(), c.realNow()
	if t.Before(c.base) {
		t = c.base // never back
	}
	if c.holds == nil {
		c.holds = map[any]time.Time{}
	}
	c.holds[who] = t
}

// release lets the clock flow freely again, from where it stands.
func (c *Clock) release() { c.releaseFor(nil) }

// releaseFor ends who's hold; the others' stay.
func (c *Clock) releaseFor(who any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.realBase = c.nowLocked(), c.realNow()
	delete(c.holds, who)
}
